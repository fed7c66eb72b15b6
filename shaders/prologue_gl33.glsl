#version 330 core
// Prologue for desktop OpenGL 3.3 core (trnsim-gui): the desktop variant of the same
// shader bodies. GLSL 3.30 and GLSL ES 3.00 share the syntax used here (in/out,
// layout(location), fwidth), so only this prologue differs.
