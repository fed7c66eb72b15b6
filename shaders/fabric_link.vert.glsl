// Fabric links: one instanced quad per straight segment of a directed link.
// Per instance: the segment's ends in ImGui display pixels, its width, the link's
// utilization (< 0: carries nothing in the chosen collective), flags (1: hovered) and
// a sideways offset, so a link and its reverse lie side by side (each is offset to its
// own right-hand side). Per vertex: the quad corner (along 0..1, across -1..1).
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_ends;
layout(location = 2) in vec4 a_style;  // width px, utilization, flags, offset px

uniform vec4 u_display;  // ImGui DisplayPos.xy, DisplaySize.xy

out float v_across;   // pixels from the centre line
out float v_along;    // pixels from the segment's start
out float v_width;
out float v_util;
out float v_flags;

void main() {
  vec2 p0 = a_ends.xy;
  vec2 p1 = a_ends.zw;
  vec2 d = p1 - p0;
  float len = max(length(d), 0.001);
  vec2 dir = d / len;
  vec2 normal = vec2(-dir.y, dir.x);
  float half_w = a_style.x * 0.5 + 1.0;  // one pixel for antialiasing
  vec2 p = p0 + d * a_corner.x + normal * (a_style.w + a_corner.y * half_w);
  v_across = a_corner.y * half_w;
  v_along = a_corner.x * len;
  v_width = a_style.x;
  v_util = a_style.y;
  v_flags = a_style.z;
  vec2 ndc = (p - u_display.xy) / u_display.zw * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
