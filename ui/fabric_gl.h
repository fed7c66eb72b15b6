// GPU drawing of the Fabric panel with the shaders in shaders/ (GLSL ES 3.0 on WebGL2,
// GLSL 3.30 core on desktop OpenGL 3.3; the bodies are shared and only a prologue
// differs): links as instanced quads coloured by utilization, chips and switches as
// instanced signed-distance glyphs. The drawing is queued into an ImGui draw list as a
// callback, so it lands between the panel's background and its text in the right
// order, clipped to the panel, and the ImGui backend restores its GL state afterwards.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace trnsim::ui {

struct LinkInstance {
  float x0, y0, x1, y1;  // display pixels
  float width;           // pixels
  float utilization;     // 0..1, < 0 when unused
  float flags;           // 1: hovered
  float offset;          // sideways offset, pixels (to the segment's right)
};

struct GlyphInstance {
  float x, y, half, kind;  // centre, half size (pixels), 0 chip / 1 L1 switch / 2 L2 switch
  float r, g, b, a;        // fill
  float flags;             // 1: hovered, 2: member of the group (bit flags as a float)
};

// "compiled", "not used yet" or "failed: <compiler log>" (for the desktop smoke test).
std::string fabric_shaders_status();

class FabricCanvas {
 public:
  std::vector<LinkInstance> links;
  std::vector<GlyphInstance> glyphs;
  // Queues the GPU drawing of `links` then `glyphs` at this point of the draw list. When
  // the shaders are unavailable, draws simple lines and boxes with the draw list instead.
  void submit(ImDrawList* dl);

  // "" when the shaders compiled (known after the first frame that drew a fabric).
  static const std::string& gl_error();
  static bool gl_ready();

 private:
  static void callback(const ImDrawList* list, const ImDrawCmd* cmd);
};

}  // namespace trnsim::ui
