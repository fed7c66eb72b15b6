// Utilization ramp shared by the fabric shaders and (as a copy in web/ui/plot.cpp,
// utilization_colour) by the legend: 0 = blue (lightly used), 1/3 = teal, 2/3 =
// yellow, 1 = red (busy for the whole collective).
vec3 utilization_ramp(float u) {
  u = clamp(u, 0.0, 1.0);
  vec3 c0 = vec3(0.16, 0.45, 0.85);
  vec3 c1 = vec3(0.10, 0.75, 0.60);
  vec3 c2 = vec3(0.95, 0.80, 0.20);
  vec3 c3 = vec3(0.95, 0.25, 0.20);
  float t = u * 3.0;
  if (t < 1.0) return mix(c0, c1, t);
  if (t < 2.0) return mix(c1, c2, t - 1.0);
  return mix(c2, c3, t - 2.0);
}
