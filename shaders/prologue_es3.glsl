#version 300 es
// Prologue for WebGL2 (GLSL ES 3.00): prepended to every shader body in shaders/ by
// web/ui/fabric_gl.cpp when built with emscripten. The #version line must come first.
precision highp float;
precision highp int;
