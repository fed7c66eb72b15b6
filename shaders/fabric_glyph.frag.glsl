// Fabric node glyphs from signed distances (pixels): a chip is a rounded package with
// a die in the middle and pins on its four sides; a first-level switch a ring; a
// second-level switch a diamond. Members of the drawn collective group are bright,
// hovered nodes get a white outline.
in vec2 v_local;
flat in float v_half;
flat in float v_kind;
flat in float v_flags;
in vec4 v_colour;

out vec4 o_colour;

float sd_box(vec2 p, vec2 b, float r) {
  vec2 q = abs(p) - b + vec2(r);
  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
  float h = v_half;
  vec4 fill = v_colour;
  vec3 edge = min(fill.rgb * 1.5 + 0.12, vec3(1.0));
  float d;
  vec3 c = fill.rgb;
  if (v_kind < 0.5) {
    d = sd_box(v_local, vec2(h * 0.82), h * 0.18);
    float die = sd_box(v_local, vec2(h * 0.40), h * 0.08);
    if (die < 0.0) c = mix(c, edge, 0.55);
    // Pins: short teeth just outside the package, four per side.
    vec2 a = abs(v_local);
    float along = max(a.x, a.y) == a.x ? v_local.y : v_local.x;
    float outward = max(a.x, a.y);
    float tooth = abs(fract(along / (h * 0.5) + 0.5) - 0.5) * h * 0.5;
    if (outward > h * 0.82 && outward < h + 1.5 && tooth < h * 0.09 + 0.4 && abs(along) < h * 0.8) {
      d = min(d, -0.5);
      c = edge;
    }
  } else if (v_kind < 1.5) {
    d = abs(length(v_local) - h * 0.7) - h * 0.3;
  } else {
    d = (abs(v_local.x) + abs(v_local.y) - h) * 0.7071;
  }
  float coverage = clamp(0.5 - d, 0.0, 1.0);
  float border = clamp(1.0 - abs(d + 0.75), 0.0, 1.0);
  c = mix(c, edge, border);
  if (v_flags >= 0.5 && mod(v_flags, 2.0) >= 1.0) {
    float ring = clamp(1.5 - abs(d + 0.5), 0.0, 1.0);
    c = mix(c, vec3(1.0), ring);
    coverage = max(coverage, ring);
  }
  o_colour = vec4(c, fill.a * coverage);
}
