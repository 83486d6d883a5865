// `ctrlsched --help` and the Markdown option table of docs/cli.md, both rendered from the option
// table (options/options.def) so that neither can disagree with the parser.
#pragma once

#include <string>

namespace ctrlsched::driver {

std::string help_text();
// The option table as Markdown, the form docs/cli.md carries.
std::string options_markdown();

}  // namespace ctrlsched::driver
