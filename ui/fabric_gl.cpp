#include "ui/fabric_gl.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>

#include "trnsim_shaders.h"  // generated from shaders/*.glsl (ui/embed_shaders.cmake)

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#define TRNSIM_SHADER_PROLOGUE "prologue_es3.glsl"
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#define TRNSIM_SHADER_PROLOGUE "prologue_gl33.glsl"
#endif

namespace trnsim::ui {

namespace {

struct GlState {
  bool tried = false, ok = false;
  std::string error;
  GLuint link_prog = 0, glyph_prog = 0;
  GLint link_display = -1, glyph_display = -1;
  GLuint corners_link = 0, corners_glyph = 0;
  GLuint link_vbo = 0, glyph_vbo = 0;
  GLuint link_vao = 0, glyph_vao = 0;
};

GlState& gl() {
  static GlState s;
  return s;
}

std::string source(const char* name) {
  for (const auto& s : shaders::kSources)
    if (std::string(s.name) == name) return s.text;
  return std::string();
}

GLuint compile(GLenum type, const std::string& text, std::string& error, const char* name) {
  GLuint sh = glCreateShader(type);
  const char* p = text.c_str();
  glShaderSource(sh, 1, &p, nullptr);
  glCompileShader(sh);
  GLint ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {0};
    glGetShaderInfoLog(sh, sizeof log, nullptr, log);
    error += std::string(name) + ": " + log;
    glDeleteShader(sh);
    return 0;
  }
  return sh;
}

GLuint program(const char* vert, const char* frag, std::string& error) {
  std::string prologue = source(TRNSIM_SHADER_PROLOGUE) + "\n";
  GLuint vs = compile(GL_VERTEX_SHADER, prologue + source(vert), error, vert);
  GLuint fs = compile(GL_FRAGMENT_SHADER, prologue + source("colormap.glsl") + "\n" + source(frag), error, frag);
  if (!vs || !fs) return 0;
  GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {0};
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    error += std::string("link ") + vert + " + " + frag + ": " + log;
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

void init() {
  GlState& s = gl();
  s.tried = true;
  s.link_prog = program("fabric_link.vert.glsl", "fabric_link.frag.glsl", s.error);
  s.glyph_prog = program("fabric_glyph.vert.glsl", "fabric_glyph.frag.glsl", s.error);
  if (!s.link_prog || !s.glyph_prog) {
    std::fprintf(stderr, "trnsim: fabric shaders unavailable, drawing without them: %s\n", s.error.c_str());
    return;
  }
  s.link_display = glGetUniformLocation(s.link_prog, "u_display");
  s.glyph_display = glGetUniformLocation(s.glyph_prog, "u_display");
  const float link_corners[] = {0, -1, 1, -1, 0, 1, 1, 1};
  const float glyph_corners[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &s.corners_link);
  glBindBuffer(GL_ARRAY_BUFFER, s.corners_link);
  glBufferData(GL_ARRAY_BUFFER, sizeof link_corners, link_corners, GL_STATIC_DRAW);
  glGenBuffers(1, &s.corners_glyph);
  glBindBuffer(GL_ARRAY_BUFFER, s.corners_glyph);
  glBufferData(GL_ARRAY_BUFFER, sizeof glyph_corners, glyph_corners, GL_STATIC_DRAW);
  glGenBuffers(1, &s.link_vbo);
  glGenBuffers(1, &s.glyph_vbo);

  auto attr = [](GLuint index, GLint size, GLsizei stride, std::size_t offset, GLuint divisor) {
    glEnableVertexAttribArray(index);
    glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offset));
    glVertexAttribDivisor(index, divisor);
  };
  glGenVertexArrays(1, &s.link_vao);
  glBindVertexArray(s.link_vao);
  glBindBuffer(GL_ARRAY_BUFFER, s.corners_link);
  attr(0, 2, 2 * sizeof(float), 0, 0);
  glBindBuffer(GL_ARRAY_BUFFER, s.link_vbo);
  attr(1, 4, sizeof(LinkInstance), offsetof(LinkInstance, x0), 1);
  attr(2, 4, sizeof(LinkInstance), offsetof(LinkInstance, width), 1);

  glGenVertexArrays(1, &s.glyph_vao);
  glBindVertexArray(s.glyph_vao);
  glBindBuffer(GL_ARRAY_BUFFER, s.corners_glyph);
  attr(0, 2, 2 * sizeof(float), 0, 0);
  glBindBuffer(GL_ARRAY_BUFFER, s.glyph_vbo);
  attr(1, 4, sizeof(GlyphInstance), offsetof(GlyphInstance, x), 1);
  attr(2, 4, sizeof(GlyphInstance), offsetof(GlyphInstance, r), 1);
  attr(3, 1, sizeof(GlyphInstance), offsetof(GlyphInstance, flags), 1);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  s.ok = true;
}

void draw_without_shaders(ImDrawList* dl, const FabricCanvas& c) {
  for (const auto& l : c.links) {
    float dx = l.x1 - l.x0, dy = l.y1 - l.y0;
    float len = std::max(0.001f, std::sqrt(dx * dx + dy * dy));
    float nx = -dy / len * l.offset, ny = dx / len * l.offset;
    ImVec4 col = l.utilization < 0 ? ImVec4(0.3f, 0.33f, 0.4f, 0.55f) : ImVec4(0.2f, 0.6f, 0.8f, 1.0f);
    dl->AddLine(ImVec2(l.x0 + nx, l.y0 + ny), ImVec2(l.x1 + nx, l.y1 + ny), ImGui::GetColorU32(col), l.width);
  }
  for (const auto& g : c.glyphs)
    dl->AddRectFilled(ImVec2(g.x - g.half, g.y - g.half), ImVec2(g.x + g.half, g.y + g.half),
                      ImGui::GetColorU32(ImVec4(g.r, g.g, g.b, g.a)), g.half * 0.3f);
}

}  // namespace

std::string fabric_shaders_status() {
  if (!gl().tried) return "not used yet";
  return gl().ok ? "compiled" : "failed: " + gl().error;
}

const std::string& FabricCanvas::gl_error() { return gl().error; }
bool FabricCanvas::gl_ready() { return gl().ok; }

void FabricCanvas::submit(ImDrawList* dl) {
  if (gl().tried && !gl().ok) {
    draw_without_shaders(dl, *this);
    return;
  }
  dl->AddCallback(&FabricCanvas::callback, this);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void FabricCanvas::callback(const ImDrawList*, const ImDrawCmd* cmd) {
  GlState& s = gl();
  if (!s.tried) init();
  if (!s.ok) return;
  const FabricCanvas& c = *static_cast<const FabricCanvas*>(cmd->UserCallbackData);
  ImDrawData* dd = ImGui::GetDrawData();
  if (!dd) return;
  const ImVec2 dpos = dd->DisplayPos, dsize = dd->DisplaySize, scale = dd->FramebufferScale;
  const float fb_h = dsize.y * scale.y;
  const ImVec4 clip = cmd->ClipRect;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>((clip.x - dpos.x) * scale.x), static_cast<GLint>(fb_h - (clip.w - dpos.y) * scale.y),
            static_cast<GLsizei>((clip.z - clip.x) * scale.x), static_cast<GLsizei>((clip.w - clip.y) * scale.y));
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  if (!c.links.empty()) {
    glUseProgram(s.link_prog);
    glUniform4f(s.link_display, dpos.x, dpos.y, dsize.x, dsize.y);
    glBindVertexArray(s.link_vao);
    glBindBuffer(GL_ARRAY_BUFFER, s.link_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(c.links.size() * sizeof(LinkInstance)), c.links.data(),
                 GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(c.links.size()));
  }
  if (!c.glyphs.empty()) {
    glUseProgram(s.glyph_prog);
    glUniform4f(s.glyph_display, dpos.x, dpos.y, dsize.x, dsize.y);
    glBindVertexArray(s.glyph_vao);
    glBindBuffer(GL_ARRAY_BUFFER, s.glyph_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(c.glyphs.size() * sizeof(GlyphInstance)), c.glyphs.data(),
                 GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(c.glyphs.size()));
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace trnsim::ui
