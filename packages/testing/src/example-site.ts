import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The demo/test page: a form whose submit button writes a greeting into `#greeting`. */
export const EXAMPLE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Drover example</title></head>
<body>
  <h1>Sign the guest book</h1>
  <form id="guest" onsubmit="event.preventDefault(); greet();">
    <label>Name <input id="name" name="name" autocomplete="off"></label>
    <button id="submit" type="submit">Sign</button>
  </form>
  <p id="greeting" hidden></p>
  <script>
    function greet() {
      const name = document.getElementById('name').value.trim() || 'stranger';
      setTimeout(() => {
        const p = document.getElementById('greeting');
        p.textContent = 'Hello, ' + name + '! You are guest #42.';
        p.hidden = false;
      }, 50);
    }
  </script>
</body></html>`;

/** A running example site on 127.0.0.1. */
export interface ExampleSite {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Serve the example page on 127.0.0.1 (port 0 picks a free port). */
export async function startExampleSite(port = 0): Promise<ExampleSite> {
  const server = createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(EXAMPLE_PAGE);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: p } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${p}/`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
