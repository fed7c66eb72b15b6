// trnsim-gui: the playground's UI (ui/) as a desktop program, with SDL2, OpenGL 3.3
// core and Dear ImGui from Debian's packages. The same panels, shaders (desktop GL
// variant) and core as the browser page; links are the page's links (`trnsim link`).
//
//   trnsim-gui [LINK]                  open a playground link, "#s=1..." fragment or
//                                      "#example=NAME" (default: the default scenario)
//   --frames N                         draw N frames, then exit (smoke tests)
//   --cycle-panels                     with --frames: show every panel in turn
//   --panel NAME                       start on one panel ("Fabric", "MX lab", ...)
//   --screenshot FILE.png              write the last frame drawn
//   --size WxH                         window size (default 1400x900)
//   --expect-ink F                     exit 1 unless at least a fraction F of the last
//                                      frame's pixels differ from the background
// Exit codes: 0 ok, 1 failure (no window or GL context, blank frame), 2 bad usage.
#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "link/link.h"
#include "ui/app.h"
#include "ui/fabric_gl.h"

extern "C" int stbi_write_png(const char* filename, int w, int h, int comp, const void* data, int stride_in_bytes);

namespace {

struct Options {
  std::string link;
  long frames = -1;
  bool cycle_panels = false;
  std::string panel;
  std::string screenshot;
  int width = 1400, height = 900;
  double expect_ink = -1;
};

int usage(const char* why) {
  std::fprintf(stderr, "trnsim-gui: %s\nUsage: trnsim-gui [LINK] [--frames N] [--cycle-panels] [--panel NAME] [--screenshot FILE.png] "
                       "[--size WxH] [--expect-ink F]\n", why);
  return 2;
}

// The history of links, as the browser keeps it for the page (push / replace / go).
struct History {
  std::vector<std::string> entries{""};
  std::size_t at = 0;
  void record(const std::string& fragment, bool new_entry) {
    if (new_entry) {
      entries.resize(at + 1);
      entries.push_back(fragment);
      at = entries.size() - 1;
    } else {
      entries[at] = fragment;
    }
  }
};

// Share of pixels that differ from the most common colour (the background).
double ink(const std::vector<unsigned char>& rgba) {
  std::map<unsigned, std::size_t> counts;
  std::size_t n = rgba.size() / 4;
  for (std::size_t i = 0; i < n; ++i) ++counts[(rgba[4 * i] << 16) | (rgba[4 * i + 1] << 8) | rgba[4 * i + 2]];
  unsigned bg = 0;
  std::size_t best = 0;
  for (const auto& kv : counts)
    if (kv.second > best) best = kv.second, bg = kv.first;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < n; ++i) {
    int d = std::abs(rgba[4 * i] - static_cast<int>(bg >> 16)) + std::abs(rgba[4 * i + 1] - static_cast<int>((bg >> 8) & 255)) +
            std::abs(rgba[4 * i + 2] - static_cast<int>(bg & 255));
    if (d > 30) ++differ;
  }
  return n ? static_cast<double>(differ) / n : 0;
}

// Reads the command line into `opt`; returns -1 to go on, else the exit code (usage: 2, --help: 0).
int parse_options(int argc, char** argv, Options& opt) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)name;
      return argv[++i];
    };
    if (a == "--frames") {
      const char* v = value("--frames");
      if (!v) return usage("--frames needs a number");
      opt.frames = std::strtol(v, nullptr, 10);
    } else if (a == "--cycle-panels") {
      opt.cycle_panels = true;
    } else if (a == "--panel") {
      const char* v = value("--panel");
      if (!v) return usage("--panel needs a panel name");
      opt.panel = v;
    } else if (a == "--screenshot") {
      const char* v = value("--screenshot");
      if (!v) return usage("--screenshot needs a file name");
      opt.screenshot = v;
    } else if (a == "--size") {
      const char* v = value("--size");
      if (!v || std::sscanf(v, "%dx%d", &opt.width, &opt.height) != 2) return usage("--size needs WxH");
    } else if (a == "--expect-ink") {
      const char* v = value("--expect-ink");
      if (!v) return usage("--expect-ink needs a fraction");
      opt.expect_ink = std::strtod(v, nullptr);
    } else if (a == "--help" || a == "-h") {
      usage("the trnsim playground on the desktop");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage(("unknown option " + a).c_str());
    } else {
      opt.link = a;
    }
  }
  return -1;
}

// The window with its OpenGL 3.3 core context, and Dear ImGui on it.
struct Window {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
};

bool open_window(const Options& opt, Window& w) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "trnsim-gui: SDL_Init: %s\n", SDL_GetError());
    return false;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  w.window = SDL_CreateWindow("trnsim", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, opt.width, opt.height,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  w.gl = w.window ? SDL_GL_CreateContext(w.window) : nullptr;
  if (!w.window || !w.gl) {
    std::fprintf(stderr, "trnsim-gui: no OpenGL 3.3 window: %s\n", SDL_GetError());
    return false;
  }
  SDL_GL_MakeCurrent(w.window, w.gl);
  SDL_GL_SetSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the link, not a file, holds the state
  ImGui::StyleColorsDark();
  ImGui::GetStyle().FrameRounding = 3;
  ImGui::GetStyle().GrabRounding = 3;
  ImGui_ImplSDL2_InitForOpenGL(w.window, w.gl);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  return true;
}

void close_window(Window& w) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_GL_DeleteContext(w.gl);
  SDL_DestroyWindow(w.window);
  SDL_Quit();
}

// The App's hooks: history entries, messages on stderr, links, the clipboard, back and forward.
void connect(trnsim::ui::App& app, History& history, bool& going) {
  app.on_scenario_changed = [&history, &going](const std::string& fragment, bool new_entry) {
    if (!going) history.record(fragment, new_entry);
  };
  app.on_message = [](const std::string& m) {
    if (!m.empty()) std::fprintf(stderr, "trnsim-gui: %s\n", m.c_str());
  };
  app.page_link = [&app] { return trnsim::make_link(trnsim::scenario_to_json(app.scenario())); };
  app.copy_text = [](const std::string& text) { return SDL_SetClipboardText(text.c_str()) == 0; };
  app.history_go = [&app, &history, &going](int delta) {
    long to = static_cast<long>(history.at) + delta;
    if (to < 0 || to >= static_cast<long>(history.entries.size())) return;
    history.at = static_cast<std::size_t>(to);
    going = true;
    app.load_fragment(history.entries[history.at]);
    going = false;
  };
}

// Handles the pending events (waiting for one when idle); false in `running` on quit. Returns
// whether to draw a frame: after input, while animating and a few frames after, or always
// when a frame count is given.
bool next_frame_due(const Options& opt, const trnsim::ui::App& app, int& wake, bool& running) {
  SDL_Event event;
  bool had = false;
  // Idle without input: wait for an event instead of redrawing the same frame.
  if (opt.frames < 0 && wake <= 0 && !app.animating() && !ImGui::GetIO().WantTextInput) {
    if (SDL_WaitEventTimeout(&event, 500)) {
      ImGui_ImplSDL2_ProcessEvent(&event);
      if (event.type == SDL_QUIT) running = false;
      had = true;
    }
  }
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_QUIT) running = false;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) running = false;
    had = true;
  }
  if (had || app.animating()) wake = 4;  // animating: and a few frames after it ends
  if (opt.frames < 0 && wake <= 0 && !ImGui::GetIO().WantTextInput) return false;
  --wake;
  return true;
}

void draw_frame(trnsim::ui::App& app, SDL_Window* window) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  app.draw();
  ImGui::Render();
  int fw = 0, fh = 0;
  SDL_GL_GetDrawableSize(window, &fw, &fh);
  glViewport(0, 0, fw, fh);
  glClearColor(0.09f, 0.10f, 0.12f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// The frame just drawn as RGBA rows, top row first.
void read_frame(SDL_Window* window, std::vector<unsigned char>& pixels) {
  int fw = 0, fh = 0;
  SDL_GL_GetDrawableSize(window, &fw, &fh);
  pixels.assign(static_cast<std::size_t>(fw) * fh * 4, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fw, fh, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL rows run bottom-up; PNG rows top-down.
  for (int y = 0; y < fh / 2; ++y)
    std::swap_ranges(pixels.begin() + static_cast<long>(y) * fw * 4, pixels.begin() + static_cast<long>(y + 1) * fw * 4,
                     pixels.begin() + static_cast<long>(fh - 1 - y) * fw * 4);
}

// The screenshot and the ink check of the last frame; the exit code.
int check_last_frame(const Options& opt, SDL_Window* window, const std::vector<unsigned char>& pixels, long frame) {
  int rc = 0;
  int fw = 0, fh = 0;
  SDL_GL_GetDrawableSize(window, &fw, &fh);
  if (!opt.screenshot.empty() && !stbi_write_png(opt.screenshot.c_str(), fw, fh, 4, pixels.data(), fw * 4)) {
    std::fprintf(stderr, "trnsim-gui: cannot write %s\n", opt.screenshot.c_str());
    rc = 1;
  }
  double f = ink(pixels);
  std::printf("trnsim-gui: %ld frames drawn; last frame %dx%d, %.1f%% of the pixels differ from the background; "
              "fabric shaders %s\n",
              frame, fw, fh, f * 100, trnsim::ui::fabric_shaders_status().c_str());
  if (opt.expect_ink >= 0 && f < opt.expect_ink) {
    std::fprintf(stderr, "trnsim-gui: the last frame is blank (%.3f < %.3f)\n", f, opt.expect_ink);
    rc = 1;
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (const int rc = parse_options(argc, argv, opt); rc >= 0) return rc;
  Window w;
  if (!open_window(opt, w)) return 1;

  History history;
  trnsim::ui::App app;
  bool going = false;  // loading a history entry: do not record it again
  connect(app, history, going);
  app.load_fragment(opt.link.empty() ? "" : opt.link.substr(opt.link.find('#') == std::string::npos ? 0 : opt.link.find('#')));
  history.entries[0] = app.fragment();
  if (!opt.panel.empty()) app.show_panel(opt.panel);

  const std::vector<std::string> panels = app.panel_names();
  std::vector<unsigned char> pixels;
  long frame = 0;
  int wake = 4;
  bool running = true;
  while (running) {
    if (!next_frame_due(opt, app, wake, running)) continue;
    if (opt.cycle_panels && opt.frames > 0 && !panels.empty()) {
      long per = std::max<long>(2, opt.frames / static_cast<long>(panels.size()));
      if (frame % per == 0) app.show_panel(panels[static_cast<std::size_t>(frame / per) % panels.size()]);
    }
    draw_frame(app, w.window);
    ++frame;
    bool last = opt.frames >= 0 && frame >= opt.frames;
    if (last && (!opt.screenshot.empty() || opt.expect_ink >= 0)) read_frame(w.window, pixels);
    SDL_GL_SwapWindow(w.window);
    if (last) running = false;
  }

  const int rc = pixels.empty() ? 0 : check_last_frame(opt, w.window, pixels, frame);
  close_window(w);
  return rc;
}
