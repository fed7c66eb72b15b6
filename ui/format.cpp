#include "ui/format.h"

#include <cmath>
#include <cstdio>

namespace trnsim::ui {

std::string fmt_g(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

namespace {

// Three significant digits, without exponent notation for the usual ranges.
std::string three(double v) {
  char buf[64];
  double a = std::fabs(v);
  if (a >= 100) std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10) std::snprintf(buf, sizeof buf, "%.1f", v);
  else std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string scaled(double v, const char* const* prefixes, int count, double step, int zero_index,
                   const char* unit) {
  if (!std::isfinite(v)) return std::string(std::isnan(v) ? "n/a " : "inf ") + unit;
  if (v == 0) return std::string("0 ") + unit;
  int i = zero_index;
  double a = std::fabs(v);
  while (a >= step * 0.9995 && i + 1 < count) a /= step, v /= step, ++i;
  while (a < 0.9995 && i > 0) a *= step, v *= step, --i;
  return three(v) + " " + prefixes[i] + unit;
}

}  // namespace

std::string fmt_si(double value, const char* unit) {
  static const char* const p[] = {"p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  return scaled(value, p, 11, 1000.0, 4, unit);
}

std::string fmt_time(double s) {
  static const char* const p[] = {"p", "n", "u", "m", ""};
  if (std::fabs(s) >= 3600 * 0.9995) return three(s / 3600) + " h";
  if (std::fabs(s) >= 60 * 0.9995) return three(s / 60) + " min";
  return scaled(s, p, 5, 1000.0, 4, "s");
}

std::string fmt_bytes(double b) {
  static const char* const p[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return scaled(b, p, 7, 1024.0, 0, "B");
}

std::string fmt_rate_bytes(double bps) { return fmt_si(bps, "B/s"); }
std::string fmt_flops(double f) { return fmt_si(f, "FLOP"); }
std::string fmt_flops_rate(double f) { return fmt_si(f, "FLOP/s"); }

std::string fmt_count(double v) {
  if (!std::isfinite(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
  std::string digits = buf, out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out += digits[i];
    if ((n - 1 - i) % 3 == 0 && i + 1 < n) out += ',';
  }
  return (v < 0 ? "-" : "") + out;
}

std::string fmt_percent(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", f * 100.0);
  return buf;
}

std::string fmt_ratio(double r) {
  if (!std::isfinite(r)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, r >= 10 ? "%.1fx" : "%.2fx", r);
  return buf;
}

}  // namespace trnsim::ui
