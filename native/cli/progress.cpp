#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace trnsim::cli {

// Under node (the WebAssembly CLI) isatty cannot tell a redirected stream from a terminal,
// so that build never draws: its output must equal the native CLI's byte for byte.
bool stderr_is_terminal(const std::ostream& s) {
#ifdef __EMSCRIPTEN__
  (void)s;
  return false;
#else
  return &s == &std::cerr && isatty(STDERR_FILENO) == 1;
#endif
}

Progress::Progress(std::ostream& err, std::string label, std::string unit, std::size_t total, bool wanted,
                   double delay_s)
    : err_(err),
      label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(wanted && stderr_is_terminal(err)),
      delay_s_(delay_s) {}

Progress::~Progress() { finish(); }

namespace {

std::string seconds_text(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(buf, sizeof buf, "%d h %02d min", static_cast<int>(s) / 3600, static_cast<int>(s) % 3600 / 60);
  return buf;
}

}  // namespace

std::string Progress::render(const std::string& label, const std::string& unit, std::size_t done, std::size_t total,
                             double elapsed_s) {
  std::string line = label + " ";
  if (total == 0) return line + std::to_string(done) + " " + unit + ", " + seconds_text(elapsed_s);
  const std::size_t width = 30;
  const std::size_t filled = done >= total ? width : done * width / total;
  line += "[" + std::string(filled, '#') + std::string(width - filled, '.') + "] ";
  line += std::to_string(done) + "/" + std::to_string(total) + " " + unit;
  char pct[16];
  std::snprintf(pct, sizeof pct, "  %3d%%  ", static_cast<int>(done >= total ? 100 : done * 100 / total));
  line += pct + seconds_text(elapsed_s);
  if (done > 0 && done < total)
    line += ", about " + seconds_text(elapsed_s / static_cast<double>(done) * static_cast<double>(total - done)) + " left";
  return line;
}

void Progress::update(std::size_t done) {
  done_ = done;
  if (!enabled_ || finished_) return;
  const auto now = clock::now();
  if (std::chrono::duration<double>(now - start_).count() < delay_s_) return;
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw(false);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (drawn_) draw(true);
}

void Progress::draw(bool final) {
  const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
  // Clear to the end of the line: a shorter estimate must not leave old characters behind.
  err_ << "\r" << render(label_, unit_, done_, total_, elapsed) << "\x1b[K"
       << (final ? "\n" : "") << std::flush;
  drawn_ = true;
}

}  // namespace trnsim::cli
