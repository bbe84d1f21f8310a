// nginx with its image_filter module (libgd) as a peer of cold delivery: Debian's nginx, started
// on a free port over a folder, resizing `/w_WIDTH/PATH` to WIDTH px wide per request (no cache,
// so every request is a new render, as our misses are). Absent nginx or the module, the bench
// says so and skips the peer (`apt-get install nginx libnginx-mod-http-image-filter`).
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'

const NGINX = '/usr/sbin/nginx'
const MODULE = '/usr/lib/nginx/modules/ngx_http_image_filter_module.so'

/** Whether Debian's nginx and its image_filter module are installed. */
export function nginxAvailable(): boolean {
  return existsSync(NGINX) && existsSync(MODULE)
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address !== 'object') throw new Error('no port')
  return address.port
}

/**
 * Starts nginx over `root` (made readable to its workers) in `prefix`, with `workers` worker
 * processes, JPEG quality `quality` (ours: 80). Resolves once it answers.
 */
export async function startNginx(
  root: string,
  prefix: string,
  options: { workers: number; quality: number },
): Promise<{ origin: string; version: string; stop: () => Promise<void> }> {
  await mkdir(prefix, { recursive: true })
  await chmod(root, 0o755)
  const port = await freePort()
  const conf = join(prefix, 'nginx.conf')
  await writeFile(
    conf,
    `load_module ${MODULE};
worker_processes ${options.workers};
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    location ~ ^/w_(\\d+)/(.+)$ {
      alias ${root}/$2;
      image_filter resize $1 -;
      image_filter_jpeg_quality ${options.quality};
      image_filter_buffer 20M;
    }
  }
}
`,
  )
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', prefix, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const origin = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGQUIT')
    await exited
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`)
    try {
      await fetch(`${origin}/`)
      const version = await new Promise<string>((resolve) => {
        const probe = spawn(NGINX, ['-v'])
        let text = ''
        probe.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        probe.on('close', () => resolve(text.trim().replace('nginx version: ', '')))
      })
      return { origin, version, stop }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  await stop()
  throw new Error(`nginx did not answer on ${origin}: ${stderr}`)
}
