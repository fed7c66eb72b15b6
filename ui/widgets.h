// Small widgets shared by the panels, and the probe registry the browser tests use to
// find a control on the canvas by a stable name instead of a pixel position.
#pragma once
#include <imgui.h>

#include <string>

namespace trnsim::ui {

// Records the last item's rectangle (screen pixels) under `id` for this frame.
void probe(const char* id);
// The rectangle recorded under `id` during the last completed frame.
bool probe_rect(const std::string& id, ImVec2& min, ImVec2& max);
// Called by App at the start of every frame.
void probe_new_frame();
// Every id recorded during the last frame, comma-separated (for test diagnostics).
std::string probe_ids();

void help_marker(const char* text);
// Red wrapped text: why an edit was not applied.
void error_text(const std::string& text);
void dim_text(const char* fmt, ...) IM_FMTARGS(1);
// A section heading with a rule under it.
void section(const char* title);

// An integer slider on a log scale (powers of two are easy to hit); ctrl+click types.
bool slider_int_log(const char* label, int* v, int lo, int hi, const char* format = "%d");
// A double slider; `log` picks a logarithmic scale.
bool slider_double(const char* label, double* v, double lo, double hi, const char* format, bool log = false);
// Radio buttons picking the primary system (0) or the comparison system (1) by their display
// names; `which` falls back to 0 when there is no comparison (or it has no result).
void system_picker(const std::string& primary, const std::string* comparison, int* which);

}  // namespace trnsim::ui
