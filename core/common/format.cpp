#include "common/format.h"

#include <cmath>
#include <cstdio>

namespace trnsim::fmt {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string general(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string significant(double v, int digits) {
  if (!std::isfinite(v)) return std::isnan(v) ? "n/a" : (v > 0 ? "inf" : "-inf");
  double a = std::fabs(v);
  int decimals = digits - 1;
  for (double p = 10; decimals > 0 && a >= p * 0.99995; p *= 10) --decimals;
  return fixed(v, decimals);
}

std::string si(double v, const std::string& unit, int digits) {
  static const char* const prefixes[] = {"p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  if (!std::isfinite(v)) return significant(v) + " " + unit;
  if (v == 0) return "0 " + unit;
  int i = 4;
  double x = v, a = std::fabs(v);
  while (a >= 999.5 && i < 10) x /= 1000, a /= 1000, ++i;
  while (a < 0.9995 && i > 0) x *= 1000, a *= 1000, --i;
  return significant(x, digits) + " " + prefixes[i] + unit;
}

std::string time(double s) {
  if (!std::isfinite(s)) return significant(s) + " s";
  double a = std::fabs(s);
  if (a >= 1.0) return fixed(s, 3) + " s";
  if (a >= 1e-3) return fixed(s * 1e3, 3) + " ms";
  return fixed(s * 1e6, 2) + " us";
}

std::string bytes(double b) {
  static const char* const prefixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  if (!std::isfinite(b)) return significant(b) + " B";
  int i = 0;
  double x = b;
  while (std::fabs(x) >= 1023.5 && i < 6) x /= 1024, ++i;
  return (i == 0 ? fixed(x, 0) : significant(x)) + " " + prefixes[i] + "B";
}

std::string gib(double b, int decimals) { return fixed(b / (1024.0 * 1024.0 * 1024.0), decimals) + " GiB"; }

std::string percent(double f, int decimals) { return fixed(f * 100.0, decimals) + "%"; }

std::string ratio(double r) {
  if (!std::isfinite(r)) return "n/a";
  return fixed(r, 2) + "x";
}

std::string count(double v) {
  if (!std::isfinite(v)) return "n/a";
  std::string digits = fixed(std::fabs(v), 0), out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out += digits[i];
    if ((n - 1 - i) % 3 == 0 && i + 1 < n) out += ',';
  }
  return (v < 0 && digits != "0" ? "-" : "") + out;
}

std::string number(double v) {
  if (v == 0) return "0";
  double a = std::fabs(v);
  if (a >= 1000) return count(v);
  if (a >= 100) return fixed(v, 1);
  if (a >= 10) return fixed(v, 2);
  if (a >= 1) return fixed(v, 3);
  if (a >= 0.01) return fixed(v, 4);
  return general(v, 3);
}

std::string usd(double v) { return "$" + fixed(v, 3); }

std::string params(double p) {
  if (p >= 1e9) return fixed(p / 1e9, 2) + " B";
  return fixed(p / 1e6, 2) + " M";
}

std::string value(const std::string& unit, double v) {
  if (unit == "s") return time(v);
  if (unit == "B") return bytes(v);
  if (unit == "fraction") return percent(v);
  if (unit == "x") return ratio(v);
  if (unit == "USD") return usd(v);
  if (unit == "W") return fixed(v, 0) + " W";
  if (unit.empty()) return number(v);
  return number(v) + " " + unit;
}

std::string pad(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }
std::string lpad(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? sep : std::string()) + items[i];
  return s;
}

}  // namespace trnsim::fmt
