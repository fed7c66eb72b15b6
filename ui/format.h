// Number formatting for the playground's labels, tooltips and axes: SI prefixes with the
// unit in the text, so no figure on screen is a bare number. Display only -- reports use
// the core's own writers (report_to_text / report_to_json), never these.
#pragma once
#include <string>

namespace trnsim::ui {

std::string fmt_time(double seconds);              // "28.9 ms", "412 us", "3.20 s"
std::string fmt_bytes(double bytes);               // "15.8 GiB", "640 KiB", "12 B"
std::string fmt_rate_bytes(double bytes_per_s);    // "706 TB/s" (decimal, as published)
std::string fmt_flops(double flops);               // "2.52 PFLOP"
std::string fmt_flops_rate(double flops_per_s);    // "2.52 PFLOP/s"
std::string fmt_si(double value, const char* unit);  // "36.4 k tokens/s" style: 3 significant digits
std::string fmt_count(double value);               // "36,385" (whole numbers with separators)
std::string fmt_percent(double fraction);          // "14.1%"
std::string fmt_ratio(double ratio);               // "3.14x"
std::string fmt_g(double value, int digits = 3);   // "%.3g"

}  // namespace trnsim::ui
