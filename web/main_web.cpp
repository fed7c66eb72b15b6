// The playground page's platform glue: SDL2 + WebGL2 + Dear ImGui under emscripten,
// the URL fragment (read at start and on hashchange, written on every edit), and the
// JavaScript API the page and its tests use:
//   window.trnsim.scenario()  -> the scenario JSON, as `trnsim link decode` prints it
//   window.trnsim.report()    -> the report JSON, as `trnsim run --json` prints it
//   window.trnsim.message()   -> the visible error message, "" when none
// Everything else is in ui/app.cpp, which knows nothing of the browser.
#include <SDL.h>
#include <emscripten.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <GLES3/gl3.h>

#include <cstdio>
#include <memory>
#include <string>

#include "ui/app.h"

namespace {

SDL_Window* g_window = nullptr;
SDL_GLContext g_gl = nullptr;
std::unique_ptr<trnsim::ui::App> g_app;

}  // namespace

EM_JS(char*, js_location_hash, (), {
  return stringToNewUTF8(window.location.hash || "");
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

EM_JS(void, js_canvas_size, (int* w, int* h), {
  const c = Module.canvas;
  setValue(w, c.clientWidth | 0, "i32");
  setValue(h, c.clientHeight | 0, "i32");
});

// The page's JavaScript API (window.trnsim) and the back/forward handler.
EM_JS(void, js_install_api, (), {
  window.addEventListener("hashchange", function() { Module._trnsim_on_hashchange(); });
  var api = {};
  api.scenario = function() { return UTF8ToString(Module._trnsim_scenario_json()); };
  api.report = function() { return UTF8ToString(Module._trnsim_report_json()); };
  api.message = function() { return UTF8ToString(Module._trnsim_message()); };
  api.ready = true;
  window.trnsim = api;
  if (window.trnsimOnReady) window.trnsimOnReady();
});

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* trnsim_scenario_json() { return g_app->scenario_json_text().c_str(); }
EMSCRIPTEN_KEEPALIVE const char* trnsim_report_json() { return g_app->report_json_text().c_str(); }
EMSCRIPTEN_KEEPALIVE const char* trnsim_message() { return g_app->message().c_str(); }

// Called by the page on hashchange / popstate (back and forward, or a pasted link).
EMSCRIPTEN_KEEPALIVE void trnsim_on_hashchange() {
  char* hash = js_location_hash();
  std::string h(hash);
  free(hash);
  if (h.size() > 1 && h.substr(1) == g_app->fragment()) return;
  g_app->load_fragment(h);
}

}  // extern "C"

static void frame() {
  SDL_Event event;
  while (SDL_PollEvent(&event)) ImGui_ImplSDL2_ProcessEvent(&event);
  int w = 0, h = 0;
  js_canvas_size(&w, &h);
  if (w > 0 && h > 0) {
    int cw = 0, ch = 0;
    SDL_GetWindowSize(g_window, &cw, &ch);
    if (cw != w || ch != h) SDL_SetWindowSize(g_window, w, h);
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  g_app->draw();
  ImGui::Render();
  int fw = 0, fh = 0;
  SDL_GL_GetDrawableSize(g_window, &fw, &fh);
  glViewport(0, 0, fw, fh);
  glClearColor(0.09f, 0.10f, 0.12f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SDL_GL_SwapWindow(g_window);
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
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the link, not local storage, holds the state
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(g_window, g_gl);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  g_app = std::make_unique<trnsim::ui::App>();
  g_app->on_message = [](const std::string& m) { js_set_message(m.c_str()); };
  g_app->on_scenario_changed = [](const std::string& fragment, bool new_entry) {
    js_set_fragment(fragment.c_str(), new_entry ? 1 : 0);
  };
  trnsim_on_hashchange();
  js_set_message(g_app->message().c_str());
  js_install_api();
  emscripten_set_main_loop(frame, 0, 1);
  return 0;
}
