# Script mode (cmake -DEXAMPLES=<examples dir> -DOUT=<site>/gallery.html -P gallery.cmake):
# the site's gallery page, one card per scenario in examples/*.json (the same files the
# core embeds), each opening the playground on it with one click (index.html#example=
# <stem>; the page replaces that with the scenario's full link) and linking the JSON.
# Relative URLs only, so the site works from any folder of any static host.
file(GLOB files "${EXAMPLES}/*.json")
list(SORT files)
function(escape out text)
  string(REPLACE "&" "&amp;" text "${text}")
  string(REPLACE "<" "&lt;" text "${text}")
  string(REPLACE ">" "&gt;" text "${text}")
  string(REPLACE "\"" "&quot;" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
set(cards "")
set(count 0)
foreach(f IN LISTS files)
  get_filename_component(stem "${f}" NAME_WLE)
  file(READ "${f}" text)
  string(JSON name ERROR_VARIABLE err GET "${text}" name)
  if(err)
    set(name "${stem}")
  endif()
  string(JSON system ERROR_VARIABLE err GET "${text}" system)
  if(err)
    set(system "trn3-gen2-ultraserver")
  endif()
  string(JSON compare ERROR_VARIABLE err GET "${text}" compare_system)
  if(err)
    set(compare "")
  endif()
  string(JSON kind ERROR_VARIABLE err GET "${text}" workload kind)
  if(err)
    set(kind "inference")
  endif()
  string(JSON model_type ERROR_VARIABLE err TYPE "${text}" workload model)
  if(model_type STREQUAL "STRING")
    string(JSON model GET "${text}" workload model)
  else()
    set(model "a pasted config.json")
  endif()
  escape(name "${name}")
  escape(system "${system}")
  escape(compare "${compare}")
  escape(model "${model}")
  set(vs "")
  if(NOT compare STREQUAL "")
    set(vs " vs <code>${compare}</code>")
  endif()
  string(APPEND cards "<li class=\"card\"><a class=\"open\" href=\"index.html#example=${stem}\">${name}</a>\n"
                      "<div class=\"meta\">${kind} of <b>${model}</b> on <code>${system}</code>${vs}</div>\n"
                      "<div class=\"meta\"><a href=\"examples/${stem}.json\">${stem}.json</a> &middot; "
                      "<code>trnsim run examples/${stem}.json</code></div></li>\n")
  math(EXPR count "${count} + 1")
endforeach()
file(WRITE "${OUT}" "<!doctype html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<title>trnsim gallery: example scenarios</title>
<link rel=\"icon\" href=\"data:,\">
<link rel=\"stylesheet\" href=\"style.css\">
</head>
<body class=\"doc\">
<header><strong>trnsim</strong><span class=\"tagline\">gallery of example scenarios</span>
<nav><a href=\"index.html\">playground</a> &middot; <a href=\"about.html\">about the model</a></nav></header>
<main class=\"doc\">
<h1>Example scenarios</h1>
<p>${count} scenarios bundled with trnsim (<code>examples/*.json</code>). Each opens in the playground with one
click; the page then holds the whole scenario in its link, so you can change it and share your version.
The command line gives the same report: <code>trnsim run examples/NAME.json</code>.</p>
<ul class=\"gallery\">
${cards}</ul>
</main>
</body>
</html>
")
