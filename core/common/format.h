// The one set of number formatters: every report (text, compare, validate, describe), the
// playground's views and the plots format a quantity with these, so the same time per
// output token reads the same on the page and in the terminal. Deterministic (printf with
// fixed formats: identical natively and in WebAssembly). Units follow the metric table's
// unit strings (core/report/metrics.h).
#pragma once
#include <string>
#include <vector>

namespace trnsim::fmt {

std::string fixed(double v, int decimals);      // "%.*f"
std::string general(double v, int digits);      // "%.*g"
// `digits` significant digits without an exponent for the usual ranges: 362, 36.2, 3.62.
std::string significant(double v, int digits = 3);
// SI prefix (p n u m k M G T P E) and unit: "362 PFLOP/s", "4.90 TB/s", "0 B/s".
std::string si(double v, const std::string& unit, int digits = 3);
// Seconds, in the unit that keeps the figure readable: "23.808 s", "7.801 ms", "412.00 us".
std::string time(double seconds);
// Bytes with binary prefixes, 3 significant digits: "15.8 GiB", "640 KiB", "12 B".
std::string bytes(double b);
std::string gib(double b, int decimals = 1);    // "15.8 GiB"
std::string percent(double fraction, int decimals = 1);  // "14.1%"
std::string ratio(double r);                    // "1.63x", "12.34x" (reports, compare, the page)
std::string count(double v);                    // "36,290" (rounded, thousands separators)
// A figure of any size: 3 significant digits below 1000, whole with separators above.
std::string number(double v);
std::string usd(double v);                      // "$4.850"
std::string params(double p);                   // "116.83 B", "1.50 M"
// A value of the given unit (as metric and field tables spell units): "s" time, "B" bytes,
// "fraction" percent, "x" ratio, "USD" dollars, "W" watts, anything else number + unit.
std::string value(const std::string& unit, double v);

std::string pad(const std::string& s, std::size_t width);   // left-aligned in width
std::string lpad(const std::string& s, std::size_t width);  // right-aligned in width

// The items with `sep` between them: "a, b, c" (error messages listing what is supported).
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

}  // namespace trnsim::fmt
