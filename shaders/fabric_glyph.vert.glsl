// Fabric nodes as instanced glyphs: one quad per chip or switch.
// Per instance: centre (display pixels), half size, kind (0 chip, 1 first-level switch,
// 2 second-level switch), fill colour (rgba), flags (1 hovered, 2 member of the group).
layout(location = 0) in vec2 a_corner;      // -1..1
layout(location = 1) in vec4 a_centre;      // x, y, half size, kind
layout(location = 2) in vec4 a_colour;
layout(location = 3) in float a_flags;

uniform vec4 u_display;

out vec2 v_local;     // pixels from the centre
flat out float v_half;
flat out float v_kind;
flat out float v_flags;
out vec4 v_colour;

void main() {
  float margin = 3.0;
  vec2 local = a_corner * (a_centre.z + margin);
  vec2 p = a_centre.xy + local;
  v_local = local;
  v_half = a_centre.z;
  v_kind = a_centre.w;
  v_flags = a_flags;
  v_colour = a_colour;
  vec2 ndc = (p - u_display.xy) / u_display.zw * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
