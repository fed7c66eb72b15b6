// Fabric links: colour by utilization (colormap.glsl), chevrons every 12 px pointing
// along the link's direction, antialiased edges, a highlight when hovered. Unused links
// are drawn thin and grey.
in float v_across;
in float v_along;
in float v_width;
in float v_util;
in float v_flags;

out vec4 o_colour;

void main() {
  float coverage = clamp(v_width * 0.5 + 0.5 - abs(v_across), 0.0, 1.0);
  vec3 c;
  float alpha;
  if (v_util < 0.0) {
    c = vec3(0.30, 0.33, 0.40);
    alpha = 0.55;
  } else {
    c = utilization_ramp(v_util);
    float chevron = fract((v_along - abs(v_across) * 1.2) / 12.0);
    c *= 0.82 + 0.30 * step(0.55, chevron);
    alpha = 1.0;
  }
  if (v_flags > 0.5) {
    c = mix(c, vec3(1.0), 0.5);
    alpha = 1.0;
  }
  o_colour = vec4(c, alpha * coverage);
}
