// A small static file server for build/site/ on 127.0.0.1 (the playground needs no
// server-side code; any static host works). Used by scripts/play.sh and by the
// browser tests. Usage: node scripts/serve.mjs [DIR] [--port N]   (N = 0: any free port)
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8", ".wasm": "application/wasm",
  ".svg": "image/svg+xml", ".png": "image/png", ".md": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8", ".ico": "image/x-icon",
};

export function startServer(root, port = 0) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    } catch {
      res.writeHead(400).end("bad request");
      return;
    }
    let file = path.join(base, path.normalize(rel));
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    try {
      if (fs.statSync(file).isDirectory()) {
        const index = path.join(file, "index.html");
        if (fs.existsSync(index)) file = index;
        else {
          const names = fs.readdirSync(file).sort();
          const links = names.map((n) => `<li><a href="${encodeURIComponent(n)}">${n}</a></li>`).join("");
          res.writeHead(200, { "Content-Type": TYPES[".html"] }).end(`<!doctype html><ul>${links}</ul>`);
          return;
        }
      }
      const body = fs.readFileSync(file);
      res.writeHead(200, {
        "Content-Type": TYPES[path.extname(file)] || "application/octet-stream",
        "Cache-Control": "no-cache",
      });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let dir = "build/site";
  let port = 8080;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--port") port = Number(args[++i]);
    else dir = args[i];
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error("serve: --port must be a whole number from 0 to 65535");
    process.exit(2);
  }
  if (!fs.existsSync(path.join(dir, "index.html"))) {
    console.error(`serve: ${dir}/index.html not found (build the site first)`);
    process.exit(2);
  }
  startServer(dir, port).then(
    (server) => {
      console.log(`Playground: http://127.0.0.1:${server.address().port}/   (Ctrl-C to stop)`);
    },
    (err) => {
      console.error(`serve: cannot listen on 127.0.0.1:${port}: ${err.message}`);
      process.exit(1);
    },
  );
}
