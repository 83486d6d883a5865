// JUnit XML rendering (see junit_report.h and docs/reports.md).
#include "report/junit_report.h"

#include <cstdio>
#include <set>
#include <utility>

namespace ctrlsched::driver {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at text[i], 0 if invalid.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  const bool nonchar = cp == 0xFFFE || cp == 0xFFFF;  // not XML characters
  if (overlong || surrogate || nonchar || cp > 0x10FFFF) return 0;
  return n;
}

std::string junit_base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Parsers turn a raw newline or tab in an attribute into a space: write them as references.
std::string attribute(std::string_view name, std::string_view value) {
  std::string escaped;
  for (const char c : xml_escape(value)) {
    if (c == '\n') escaped += "&#10;";
    else if (c == '\t') escaped += "&#9;";
    else escaped += c;
  }
  return " " + std::string(name) + "=\"" + escaped + "\"";
}

// "assertion at bank.c:25 in withdraw": stable across runs (no seed numbers).
std::string case_name(const FailureGroup& group, const FailureDetails& f) {
  std::string name(to_string(group.kind));
  if (!f.file.empty()) {
    name += " at " + junit_base_name(f.file);
    if (f.line != 0) name += ":" + std::to_string(f.line);
  }
  if (!f.function.empty()) name += " in " + f.function;
  return name;
}

std::string failure_body(const Report& report, const FailureGroup& group, const FailureDetails& f) {
  const RunResult& first = report.runs[group.first];
  std::string body = f.message + "\n";
  body += std::to_string(group.count) + " of " + std::to_string(report.runs.size()) + " seeds failed this way; first seed " +
          std::to_string(first.seed) + ", handle " + first.handle + "\n";
  body += "replay: " + group.replay + "\n";
  for (const std::string& frame : f.stack) body += "  at " + frame + "\n";
  for (const std::string& line : f.details) body += line + "\n";
  return body;
}

std::string seconds(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&apos;"; ++i; continue;
      case '\n':
      case '\t': out += c; ++i; continue;
      case '\r': out += "&#13;"; ++i; continue;  // a raw CR would be read as a line end
      default: break;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      out += kReplacement;
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string render_junit(const Report& report) {
  const ReportHeader& h = report.header;
  const std::uint64_t passing = at(report.counts, OutcomeKind::Pass);
  const std::size_t cases = report.groups.size() + 1;
  const std::size_t failures = report.groups.size();
  const std::size_t skipped = passing == 0 ? 1 : 0;
  const std::string suite = "ctrlsched " + h.test.target;
  const std::string class_name = "ctrlsched." + junit_base_name(h.test.target);
  const std::string time = seconds(h.elapsed_seconds);
  const std::string counts = attribute("tests", std::to_string(cases)) + attribute("failures", std::to_string(failures)) +
                             attribute("errors", "0") + attribute("skipped", std::to_string(skipped)) +
                             attribute("time", time);

  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites" + attribute("name", "ctrlsched") + counts + ">\n";
  xml += "  <testsuite" + attribute("name", suite) + counts + ">\n";
  xml += "    <properties>\n";
  std::string test_line = h.test.target;
  for (const std::string& arg : h.test.args) test_line += " " + arg;
  const std::pair<std::string, std::string> properties[] = {
      {"test", test_line},
      {"strategy", strategy_text(h.spec)},
      {"seed_start", std::to_string(h.seed_start)},
      {"seeds", std::to_string(report.runs.size())},
      {"seeds_requested", std::to_string(h.seeds_requested)},
      {"failing_seeds", std::to_string(report.failures())},
  };
  for (const auto& [name, value] : properties)
    xml += "      <property" + attribute("name", name) + attribute("value", value) + "/>\n";
  xml += "    </properties>\n";

  std::set<std::string> names;
  for (const FailureGroup& group : report.groups) {
    const RunResult& first = report.runs[group.first];
    const FailureDetails empty;
    const FailureDetails& f = first.failure ? *first.failure : empty;
    std::string name = case_name(group, f);
    if (!names.insert(name).second) {  // two groups at one place: the signature tells them apart
      name += " [" + group.signature + "]";
      names.insert(name);
    }
    xml += "    <testcase" + attribute("name", name) + attribute("classname", class_name) + attribute("time", "0") + ">\n";
    xml += "      <failure" + attribute("message", f.message.empty() ? std::string(to_string(group.kind)) : f.message) +
           attribute("type", to_string(group.kind)) + ">" + xml_escape(failure_body(report, group, f)) + "</failure>\n";
    if (!first.output_tail.empty()) xml += "      <system-out>" + xml_escape(first.output_tail) + "</system-out>\n";
    xml += "    </testcase>\n";
  }
  xml += "    <testcase" + attribute("name", "passing seeds") + attribute("classname", class_name) + attribute("time", "0");
  if (passing == 0) {
    xml += ">\n      <skipped" + attribute("message", "no seed passed") + "/>\n    </testcase>\n";
  } else {
    xml += ">\n      <system-out>" + xml_escape(std::to_string(passing) + " of " + std::to_string(report.runs.size()) +
                                                 " seeds passed") +
           "</system-out>\n    </testcase>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace ctrlsched::driver
