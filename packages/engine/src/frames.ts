// Operations that sharp would apply to an animation's stacked frames as one tall image (rotate,
// flip, the neighbourhood filters, trim) run on each frame alone here, so every frame is kept:
// the frames are materialised, each runs the operation in a pipeline of its own, and they are
// stacked again. A still image runs the operation directly.
import { EngineError, MESSAGES } from './errors.ts'
import type { RawImage } from './pipeline.ts'
import type { Step } from './step.ts'

type Run = (step: Step) => Promise<void> | void

function frameOf(stack: RawImage, index: number): RawImage {
  const bytes = stack.width * stack.height * stack.channels
  const data = stack.data.subarray(index * bytes, (index + 1) * bytes)
  return { data, width: stack.width, height: stack.height, channels: stack.channels, pages: 1 }
}

/** Runs `run` on every frame of an animation, on the image itself otherwise. */
export function frameWise(run: Run): Run {
  return async (step) => {
    if (step.image.pages <= 1) return run(step)
    const stack = await step.image.raw()
    const frames: RawImage[] = []
    for (let index = 0; index < stack.pages; index++) {
      const image = step.image.fork(frameOf(stack, index))
      await run({ ...step, image })
      frames.push(await image.raw())
    }
    const first = frames[0] as RawImage
    const same = frames.every(
      (frame) =>
        frame.width === first.width &&
        frame.height === first.height &&
        frame.channels === first.channels,
    )
    if (!same) throw new EngineError('operation_failed', MESSAGES.operationFailed)
    step.image.replace({
      data: Buffer.concat(frames.map((frame) => frame.data)),
      width: first.width,
      height: first.height,
      channels: first.channels,
      pages: frames.length,
    })
  }
}

/**
 * `t.trim` of an animation: the edges found on the first frame cut every frame (frames trimmed
 * one by one would differ in size and no longer stack).
 */
export function trimFrames(run: Run): Run {
  return async (step) => {
    if (step.image.pages <= 1) return run(step)
    const stack = await step.image.raw()
    const probe = step.image.fork(frameOf(stack, 0))
    const threshold = step.params.integer('t')
    await probe.pipe('trim', (sharp) => sharp.trim({ threshold }), undefined)
    const info = probe.lastInfo
    if (info === undefined) return
    const left = -(info.trimOffsetLeft ?? 0)
    const top = -(info.trimOffsetTop ?? 0)
    const { width, height } = info
    if (width === stack.width && height === stack.height) return
    await step.image.pipe('extract', (sharp) => sharp.extract({ left, top, width, height }), {
      width,
      height,
    })
  }
}
