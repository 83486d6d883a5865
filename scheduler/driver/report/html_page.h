// The fixed parts of the HTML report's page (html_report.h): the markup around the data, its
// stylesheet and the script that renders the data. The script reads the JSON from
// <script type="application/json" id="ctrlsched-data"> and builds every element with
// createElement/textContent (never innerHTML), and draws a timeline within a fixed budget of rows
// (long stretches of one thread fold into one expandable row; beyond the budget, the start, the
// end and the neighbourhood of every highlighted step are drawn, the rest on request). When done
// it fills <div id="ctrlsched-status"> with data-state="done", the errors it caught, the rows
// drawn and the time taken, which the browser test reads (tests/reports/check_html.py).
#pragma once

#include <string_view>

namespace ctrlsched::driver {

std::string_view html_page_before_data();  // up to and including the data element's start tag
std::string_view html_page_after_data();   // from the data element's end tag to </html>

}  // namespace ctrlsched::driver
