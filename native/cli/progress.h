// A progress bar for long CLI work (sweeps, validate, serve on large traces), one module
// shared by the commands:
//
//   sweep [############..................] 4200/10000 points  42%  3.1 s, about 4.3 s left
//
// It draws on stderr only when stderr is a terminal, and only once the work has taken
// longer than `delay_s` (quick runs print nothing); when output goes to a file, a pipe or a
// batch system's log it prints nothing at all. Redraws are limited to ten a second; the
// estimate is the elapsed time scaled by the share of items left. A total of 0 means
// "unknown": the bar then shows the count and the elapsed time only.
#pragma once
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace trnsim::cli {

// True when `s` is the process's std::cerr and file descriptor 2 is a terminal.
bool stderr_is_terminal(const std::ostream& s);

class Progress {
 public:
  // `label` starts the line ("sweep"), `unit` follows the counts ("points"). `wanted` is the
  // command's own switch (e.g. not --no-progress); the bar still needs a terminal.
  Progress(std::ostream& err, std::string label, std::string unit, std::size_t total, bool wanted,
           double delay_s = 0.5);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  // The total, once known (0: unknown).
  void set_total(std::size_t total) { total_ = total; }
  // `done` items finished (monotonic). Cheap when nothing is drawn.
  void update(std::size_t done);
  // Draws the final state and ends the line, if the bar was ever drawn; idempotent.
  void finish();

  // The text of one bar (no carriage return), for the commands' tests.
  static std::string render(const std::string& label, const std::string& unit, std::size_t done,
                            std::size_t total, double elapsed_s);

 private:
  using clock = std::chrono::steady_clock;
  std::ostream& err_;
  std::string label_, unit_;
  std::size_t total_ = 0, done_ = 0;
  bool enabled_ = false, drawn_ = false, finished_ = false;
  double delay_s_ = 0.5;
  clock::time_point start_ = clock::now(), last_draw_ = start_;
  void draw(bool final);
};

}  // namespace trnsim::cli
