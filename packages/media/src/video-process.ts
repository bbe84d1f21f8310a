// Running ffmpeg and ffprobe as child processes: a bounded number at once, each with a time limit
// after which it is killed (SIGKILL: a decoder stuck in a bad file does not answer SIGTERM), its
// output collected up to a byte limit, its stderr kept short for the error message.
import { type ChildProcess, spawn } from 'node:child_process'
import { VideoError } from './video-errors.ts'

/** How one child process is run. */
export interface RunOptions {
  /** Killed after this long (ms). */
  timeoutMs: number
  /** Most bytes of stdout kept; the process is killed past it. */
  maxStdoutBytes: number
  /** Bytes written to its stdin (closed after). */
  stdin?: Buffer
}

/** What a finished process left. */
export interface RunResult {
  stdout: Buffer
  /** The last few KB of stderr. */
  stderr: string
}

const STDERR_KEPT = 4096

/** A queue of at most `size` child processes running at once. */
export function createProcessPool(size: number) {
  let active = 0
  const waiting: Array<() => void> = []
  // Processes running now, so `close` can end them.
  const running = new Set<ChildProcess>()
  let closed = false

  async function slot(): Promise<() => void> {
    if (active < size) {
      active++
    } else {
      // A finishing process hands its slot over: the count stays.
      await new Promise<void>((resolve) => waiting.push(resolve))
    }
    let freed = false
    return () => {
      if (freed) return
      freed = true
      const next = waiting.shift()
      if (next !== undefined) next()
      else active--
    }
  }

  /**
   * Runs `file` with `args` (no shell) once a slot is free; resolves with its output when it
   * exits with 0.
   *
   * @throws {VideoError} `timeout` when killed for time; `failed` for another exit (its
   *   message holds the end of stderr) or too much output.
   */
  async function run(file: string, args: readonly string[], options: RunOptions) {
    const release = await slot()
    try {
      if (closed) throw new VideoError('failed', 'Video work is shutting down')
      return await runOnce(file, args, options, running)
    } finally {
      release()
    }
  }

  /** Kills every process running now and refuses new ones (for shutdown). */
  function close(): void {
    closed = true
    for (const child of running) child.kill('SIGKILL')
  }

  return {
    run,
    close,
    get active() {
      return active
    },
    get waiting() {
      return waiting.length
    },
  }
}

function runOnce(
  file: string,
  args: readonly string[],
  options: RunOptions,
  running: Set<ChildProcess>,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env: {} })
    running.add(child)
    const chunks: Buffer[] = []
    let stdoutBytes = 0
    let stderr = ''
    let stopped: VideoError | undefined
    const stop = (error: VideoError) => {
      stopped ??= error
      child.kill('SIGKILL')
    }
    const timer = setTimeout(
      () =>
        stop(new VideoError('timeout', `The video work ran out of time (${options.timeoutMs} ms)`)),
      options.timeoutMs,
    )
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length
      if (stdoutBytes > options.maxStdoutBytes) {
        stop(new VideoError('output_too_large', 'The result is larger than allowed'))
        return
      }
      chunks.push(chunk)
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEPT)
    })
    // Every stream gets a handler: a process that dies early makes stdin error with EPIPE.
    child.stdin.on('error', () => undefined)
    child.stdout.on('error', () => undefined)
    child.stderr.on('error', () => undefined)
    child.on('error', (error) => {
      running.delete(child)
      clearTimeout(timer)
      reject(
        new VideoError('failed', `Could not start ${file}: ${error.message}`, { cause: error }),
      )
    })
    child.on('close', (code, signal) => {
      running.delete(child)
      clearTimeout(timer)
      if (stopped !== undefined) return reject(stopped)
      if (code === 0) return resolve({ stdout: Buffer.concat(chunks), stderr })
      const last = stderr.trim().split('\n').slice(-3).join(' | ')
      reject(
        new VideoError('failed', `ffmpeg failed (${signal ?? `exit ${code}`}): ${last}`, {
          cause: stderr,
        }),
      )
    })
    child.stdin.end(options.stdin)
  })
}
