// The playground page's platform glue: SDL2 + WebGL2 + Dear ImGui under emscripten,
// the URL fragment (read at start and on hashchange, written on every edit with a
// history entry per interaction), the clipboard, and the JavaScript API the page and
// its tests use:
//   window.trnsim.scenario()      -> the scenario JSON, as `trnsim link decode` prints it
//   window.trnsim.report()        -> the report JSON, as `trnsim run --json` prints it
//   window.trnsim.message()       -> the visible error message, "" when none
//   window.trnsim.itemRect(id)    -> {x, y, w, h} of a control in page pixels (or null);
//                                    ids are the scenario field paths ("workload.inference.batch"),
//                                    "tab:Fabric", "copy-link", ... (probes() lists them)
//   window.trnsim.show(panel)     -> selects a tab ("Report", "Fabric", "Timeline", ...)
//   window.trnsim.panels(), currentPanel(), probes()
//   window.trnsim.fields()        -> the Scenario panel's fields in order: [{path, section, label, shown}]
//   window.trnsim.stats()         -> {evaluate_ms, apply_ms, first_frame_ms, frames (loop iterations),
//                                     drawn (frames drawn: idle frames are skipped), frame_cpu_ms, ui_ms,
//                                     apply_ms_median, apply_ms_max (edit -> report and link, last 64)}
//   window.trnsim.timeEvaluate(n) -> mean milliseconds of evaluate(scenario) over n runs
//   window.trnsim.serve()         -> the serving report JSON of the scenario, as `trnsim serve --json`
//   window.trnsim.panelState(tab) -> what a tab holds beyond the scenario (Panel::state_json): the
//                                    Validation tab's rows as `trnsim validate --json [--pricer P]`
//                                    prints them, with done / evaluated / total; the Capacity tab's
//                                    {state, evaluated, total, error, plan}: the plan as
//                                    `trnsim capacity --json` prints it, once every family is done
//   window.trnsim.timeServe(n)    -> {cold_ms, warm_ms}: the scenario served with n requests, with a new
//                                    step model and again with it warm (the Serving panel's code)
//   window.trnsim.lastCopied      -> the text last put on the clipboard ("Copy link", Ctrl+C)
//   window.trnsimPaste(text)      -> types text into the active field (index.html calls it on paste)
// Everything else is in ui/, which knows nothing of the browser.
#include <SDL.h>
#include <emscripten.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <GLES3/gl3.h>

#include <cstdio>
#include <memory>
#include <string>

#include "report/serving.h"
#include "ui/app.h"
#include "ui/view/scenario_form.h"
#include "ui/view/serving_view.h"
#include "ui/widgets.h"

namespace {

SDL_Window* g_window = nullptr;
SDL_GLContext g_gl = nullptr;
std::unique_ptr<trnsim::ui::App> g_app;
std::string g_out;  // storage for strings returned to JavaScript
long g_frames = 0;
double g_first_frame_ms = -1;
double g_frame_cpu_ms = 0;  // running mean of the CPU time of a frame (UI + draw calls)
double g_ui_ms = 0;         // running mean of the UI part (ImGui frame, panels, no GL)
// Frames still to draw. Without input, nothing on screen changes, so the loop stops
// drawing (the canvas keeps the last frame) until an event or an API call wakes it; a
// few frames after each wake let ImGui settle layout and hover state.
int g_wake = 4;
long g_drawn = 0;
void wake() { g_wake = g_wake < 4 ? 4 : g_wake; }

}  // namespace

EM_JS(char*, js_location_hash, (), {
  return stringToNewUTF8(window.location.hash || "");
});

EM_JS(char*, js_location_href, (), {
  return stringToNewUTF8(window.location.href || "");
});

EM_JS(void, js_set_fragment, (const char* fragment, int new_entry), {
  const hash = "#" + UTF8ToString(fragment);
  if (window.location.hash === hash) return;
  const url = window.location.pathname + window.location.search + hash;
  if (new_entry) history.pushState(null, "", url); else history.replaceState(null, "", url);
  if (window.trnsimOnScenario) window.trnsimOnScenario();
});

EM_JS(void, js_set_message, (const char* message), {
  const text = UTF8ToString(message);
  const el = document.getElementById("message");
  if (el) { el.textContent = text; el.hidden = text.length === 0; }
});

EM_JS(int, js_copy_text, (const char* text), {
  const t = UTF8ToString(text);
  if (window.trnsim) window.trnsim.lastCopied = t;
  const fallback = function() {
    const ta = document.createElement("textarea");
    ta.value = t;
    ta.style.position = "fixed";
    ta.style.opacity = "0";
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand("copy"); } catch (e) {}
    document.body.removeChild(ta);
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(t).catch(fallback);
  else fallback();
  return 1;
});

EM_JS(void, js_history_go, (int delta), {
  history.go(delta);
});

EM_JS(void, js_canvas_size, (int* w, int* h), {
  const c = Module.canvas;
  setValue(w, c.clientWidth | 0, "i32");
  setValue(h, c.clientHeight | 0, "i32");
});

EM_JS(double, js_now, (), {
  return performance.now();
});

// When a stage of the start ended (performance.now(), milliseconds since navigation), in
// window.trnsimLoad beside the page's own marks: scripts/bench_page.mjs reports where the
// first second goes.
EM_JS(void, js_mark, (const char* stage), {
  (window.trnsimLoad = window.trnsimLoad || {})[UTF8ToString(stage)] = performance.now();
});

// The page's JavaScript API (window.trnsim) and the back/forward handler.
EM_JS(void, js_install_api, (), {
  window.addEventListener("hashchange", function() { Module._trnsim_on_hashchange(); });
  var str = function(f) { return function() { return UTF8ToString(f()); }; };
  var withString = function(f, s) {
    var p = stringToNewUTF8(String(s));
    try { return UTF8ToString(f(p)); } finally { Module._free(p); }
  };
  var api = window.trnsim || {};
  api.scenario = str(Module._trnsim_scenario_json);
  api.report = str(Module._trnsim_report_json);
  api.message = str(Module._trnsim_message);
  api.itemRect = function(id) {
    var r = withString(Module._trnsim_item_rect, id);
    if (!r) return null;
    var v = r.split(",").map(Number);
    var b = Module.canvas.getBoundingClientRect();
    return { x: b.left + v[0], y: b.top + v[1], w: v[2], h: v[3] };
  };
  api.show = function(name) { withString(Module._trnsim_show, name); };
  api.panels = function() { return UTF8ToString(Module._trnsim_panels()).split(","); };
  api.currentPanel = str(Module._trnsim_current_panel);
  api.probes = function() { return UTF8ToString(Module._trnsim_probes()).split(","); };
  api.fields = function() { return JSON.parse(UTF8ToString(Module._trnsim_fields())); };
  api.stats = function() { return JSON.parse(UTF8ToString(Module._trnsim_stats())); };
  api.timeEvaluate = function(n) { return Module._trnsim_time_evaluate(n | 0); };
  api.serve = str(Module._trnsim_serve_json);
  api.panelState = function(name) { return JSON.parse(withString(Module._trnsim_panel_state, name)); };
  api.timeServe = function(n) { return JSON.parse(UTF8ToString(Module._trnsim_time_serve(n | 0))); };
  window.trnsimPaste = function(text) { withString(Module._trnsim_paste, text); };
  api.ready = true;
  window.trnsim = api;
  if (window.trnsimOnReady) window.trnsimOnReady();
});

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* trnsim_scenario_json() { return g_app->scenario_json_text().c_str(); }
EMSCRIPTEN_KEEPALIVE const char* trnsim_report_json() { return g_app->report_json_text().c_str(); }
EMSCRIPTEN_KEEPALIVE const char* trnsim_message() { return g_app->message().c_str(); }

EMSCRIPTEN_KEEPALIVE const char* trnsim_item_rect(const char* id) {
  ImVec2 a, b;
  g_out.clear();
  if (trnsim::ui::probe_rect(id, a, b)) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.1f,%.1f,%.1f,%.1f", a.x, a.y, b.x - a.x, b.y - a.y);
    g_out = buf;
  }
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_show(const char* name) {
  g_app->show_panel(name);
  wake();
  return "";
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_panels() {
  g_out.clear();
  for (const auto& n : g_app->panel_names()) g_out += (g_out.empty() ? "" : ",") + n;
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_current_panel() { return g_app->current_panel().c_str(); }

EMSCRIPTEN_KEEPALIVE const char* trnsim_probes() {
  g_out = trnsim::ui::probe_ids();
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_fields() {
  g_out = trnsim::ui::form_json(g_app->editing()).dump();
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_stats() {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"evaluate_ms\": %.4f, \"apply_ms\": %.4f, \"first_frame_ms\": %.1f, \"frames\": %ld, "
                "\"drawn\": %ld, \"frame_cpu_ms\": %.3f, \"ui_ms\": %.3f, \"apply_ms_median\": %.4f, "
                "\"apply_ms_max\": %.4f}",
                g_app->last_evaluate_ms(), g_app->last_apply_ms(), g_first_frame_ms, g_frames, g_drawn, g_frame_cpu_ms,
                g_ui_ms, g_app->median_apply_ms(), g_app->max_apply_ms());
  g_out = buf;
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE double trnsim_time_evaluate(int n) { return g_app->time_evaluate(n); }

EMSCRIPTEN_KEEPALIVE const char* trnsim_panel_state(const char* name) {
  g_out = g_app->panel_state_json(name);
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_serve_json() {
  try {
    g_out = trnsim::serve::result_to_json(trnsim::serve::run(g_app->scenario())).dump(2) + "\n";
  } catch (const trnsim::InputError& e) {
    g_out = std::string("error: ") + e.what();
  }
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* trnsim_time_serve(int requests) {
  static trnsim::ui::ServingRunner runner;
  const auto [cold, warm] = runner.time_requests(g_app->scenario(), requests);
  char buf[128];
  std::snprintf(buf, sizeof buf, "{\"cold_ms\": %.3f, \"warm_ms\": %.3f}", cold, warm);
  g_out = buf;
  return g_out.c_str();
}

// Text pasted into the page (index.html forwards the browser's paste event: SDL 2.26 has
// no clipboard on emscripten): typed into the active text field, and kept as the
// clipboard ImGui reads.
EMSCRIPTEN_KEEPALIVE void trnsim_paste(const char* text) {
  std::string t;
  for (const char* p = text; *p; ++p)
    if (*p != '\r') t += *p;
  SDL_SetClipboardText(t.c_str());
  if (ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput) ImGui::GetIO().AddInputCharactersUTF8(t.c_str());
  wake();
}

// Called by the page on hashchange / popstate (back and forward, or a pasted link).
EMSCRIPTEN_KEEPALIVE void trnsim_on_hashchange() {
  wake();
  char* hash = js_location_hash();
  std::string h(hash);
  free(hash);
  if (h.size() > 1 && h.substr(1) == g_app->fragment()) return;
  g_app->load_fragment(h);
}

}  // extern "C"

static void frame() {
  const double t0 = js_now();
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    wake();
  }
  int w = 0, h = 0;
  js_canvas_size(&w, &h);
  if (w > 0 && h > 0) {
    int cw = 0, ch = 0;
    SDL_GetWindowSize(g_window, &cw, &ch);
    if (cw != w || ch != h) SDL_SetWindowSize(g_window, w, h), wake();
  }
  ++g_frames;
  if (g_app->animating()) wake();  // and a few frames after it ends, so the last state settles
  if (g_wake <= 0 && !ImGui::GetIO().WantTextInput) return;
  --g_wake;
  if (g_drawn == 0) js_mark("first_frame_begins");
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  g_app->draw();
  ImGui::Render();
  const double t_ui = js_now();
  int fw = 0, fh = 0;
  SDL_GL_GetDrawableSize(g_window, &fw, &fh);
  glViewport(0, 0, fw, fh);
  glClearColor(0.09f, 0.10f, 0.12f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SDL_GL_SwapWindow(g_window);
  const double t1 = js_now();
  g_frame_cpu_ms = g_drawn == 0 ? t1 - t0 : 0.9 * g_frame_cpu_ms + 0.1 * (t1 - t0);
  g_ui_ms = g_drawn == 0 ? t_ui - t0 : 0.9 * g_ui_ms + 0.1 * (t_ui - t0);
  if (++g_drawn == 1) g_first_frame_ms = t1;  // milliseconds since navigation started
}

int main() {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  g_window = SDL_CreateWindow("trnsim", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1280, 800,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  g_gl = SDL_GL_CreateContext(g_window);
  if (!g_window || !g_gl) {
    std::fprintf(stderr, "WebGL2 context: %s\n", SDL_GetError());
    return 1;
  }
  js_mark("webgl");
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the link, not local storage, holds the state
  ImGui::StyleColorsDark();
  ImGui::GetStyle().FrameRounding = 3;
  ImGui::GetStyle().GrabRounding = 3;
  ImGui_ImplSDL2_InitForOpenGL(g_window, g_gl);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  // Ctrl+C in a text field: SDL's own clipboard (what ImGui pastes back) and the browser's.
  ImGui::GetIO().SetClipboardTextFn = [](void*, const char* text) {
    SDL_SetClipboardText(text);
    js_copy_text(text);
  };

  js_mark("imgui");
  g_app = std::make_unique<trnsim::ui::App>();
  js_mark("app");
  g_app->on_message = [](const std::string& m) {
    js_set_message(m.c_str());
    wake();
  };
  g_app->on_scenario_changed = [](const std::string& fragment, bool new_entry) {
    js_set_fragment(fragment.c_str(), new_entry ? 1 : 0);
  };
  g_app->page_link = [] {
    char* href = js_location_href();
    std::string s(href);
    free(href);
    return s;
  };
  g_app->copy_text = [](const std::string& text) { return js_copy_text(text.c_str()) != 0; };
  g_app->history_go = [](int delta) { js_history_go(delta); };
  trnsim_on_hashchange();
  js_set_message(g_app->message().c_str());
  js_install_api();
  js_mark("scenario");  // the default (or linked) scenario evaluated, its report made
  emscripten_set_main_loop(frame, 0, 1);
  return 0;
}
