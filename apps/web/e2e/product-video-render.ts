// What draws the product video (make-product-video.ts): `renderInPage` runs inside the page, so it
// must stay self-contained (no imports, nothing from this module's scope): Playwright sends its
// source to the browser.
import type { Step } from './product-video-scenes.ts'

export interface RenderInput {
  width: number
  height: number
  fps: number
  bitsPerSecond: number
  scenes: { id: string; seconds: number; caption: string }[]
  steps: (Step & { path: string; bytes: number; type: string })[]
}

/** Runs in the page: draws the scenes on a canvas and records them. Self-contained. */
export async function renderInPage(input: RenderInput) {
  const { width: W, height: H } = input
  const canvas = document.createElement('canvas')
  canvas.width = W
  canvas.height = H
  document.body.append(canvas)
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D
  const load = async (url: string) => createImageBitmap(await (await fetch(url)).blob())
  const shots = {
    home: await load('/__video/home.png'),
    tools: await load('/__video/tools.png'),
  }
  const stepImages = await Promise.all(input.steps.map((step) => load(step.path)))
  const FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif'
  const MONO = '"DejaVu Sans Mono", "Liberation Mono", monospace'
  const INK = '#0f172a'
  const BRAND = '#4f46e5'

  const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2)
  const clamp = (t: number) => Math.min(1, Math.max(0, t))

  function roundRect(x: number, y: number, w: number, h: number, r: number) {
    ctx.beginPath()
    ctx.roundRect(x, y, w, h, r)
  }

  function background() {
    const g = ctx.createLinearGradient(0, 0, W, H)
    g.addColorStop(0, '#eef2ff')
    g.addColorStop(1, '#f0fdfa')
    ctx.fillStyle = g
    ctx.fillRect(0, 0, W, H)
  }

  function gradientText(text: string, x: number, y: number, size: number) {
    ctx.font = `800 ${size}px ${FONT}`
    const w = ctx.measureText(text).width
    const g = ctx.createLinearGradient(x - w / 2, 0, x + w / 2, 0)
    g.addColorStop(0, '#4f46e5')
    g.addColorStop(0.5, '#7c3aed')
    g.addColorStop(1, '#0ea5a4')
    ctx.fillStyle = g
    ctx.fillText(text, x, y)
  }

  function caption(text: string, alpha: number) {
    ctx.save()
    ctx.globalAlpha = alpha
    ctx.font = `600 26px ${FONT}`
    const w = ctx.measureText(text).width + 48
    roundRect((W - w) / 2, H - 84, w, 52, 26)
    ctx.fillStyle = 'rgba(15, 23, 42, 0.86)'
    ctx.fill()
    ctx.fillStyle = '#ffffff'
    ctx.textAlign = 'center'
    ctx.textBaseline = 'middle'
    ctx.fillText(text, W / 2, H - 58)
    ctx.restore()
  }

  function browserFrame(shot: ImageBitmap, t: number, url: string) {
    background()
    const scale = 0.8 + 0.05 * ease(t)
    const w = W * scale
    const h = H * scale
    const x = (W - w) / 2
    const y = 36 + (1 - ease(clamp(t * 3))) * 40
    ctx.save()
    ctx.shadowColor = 'rgba(15, 23, 42, 0.25)'
    ctx.shadowBlur = 40
    ctx.shadowOffsetY = 16
    roundRect(x, y, w, h + 36, 14)
    ctx.fillStyle = '#ffffff'
    ctx.fill()
    ctx.restore()
    ctx.fillStyle = '#e2e8f0'
    roundRect(x, y, w, 36, 14)
    ctx.fill()
    for (const [i, colour] of ['#f87171', '#fbbf24', '#34d399'].entries()) {
      ctx.beginPath()
      ctx.arc(x + 20 + i * 18, y + 18, 6, 0, Math.PI * 2)
      ctx.fillStyle = colour
      ctx.fill()
    }
    ctx.fillStyle = '#ffffff'
    roundRect(x + 90, y + 7, w - 180, 22, 11)
    ctx.fill()
    ctx.fillStyle = '#475569'
    ctx.font = `15px ${MONO}`
    ctx.textBaseline = 'middle'
    ctx.fillText(url, x + 104, y + 18)
    // A slow zoom towards the top left while the page is shown.
    const zoom = 1 + 0.06 * ease(t)
    const sw = shot.width / zoom
    const sh = shot.height / zoom
    ctx.save()
    ctx.beginPath()
    ctx.rect(x, y + 36, w, h)
    ctx.clip()
    ctx.drawImage(shot, (shot.width - sw) * 0.3, 0, sw, sh, x, y + 36, w, h)
    ctx.restore()
  }

  function titleScene(t: number) {
    background()
    ctx.textAlign = 'center'
    ctx.textBaseline = 'alphabetic'
    ctx.globalAlpha = clamp(t * 3)
    gradientText('Tessera', W / 2, H / 2 - 20, 110)
    ctx.fillStyle = INK
    ctx.font = `600 38px ${FONT}`
    ctx.globalAlpha = clamp(t * 3 - 0.5)
    ctx.fillText('Every image, transformed by its URL', W / 2, H / 2 + 50)
    ctx.globalAlpha = 1
    ctx.textAlign = 'left'
  }

  function editorScene(t: number, seconds: number) {
    background()
    const per = seconds / input.steps.length
    const elapsed = t * seconds
    const index = Math.min(input.steps.length - 1, Math.floor(elapsed / per))
    const local = (elapsed - index * per) / per
    const step = input.steps[index] as RenderInput['steps'][number]
    const previous = input.steps[Math.max(0, index - 1)] as RenderInput['steps'][number]
    // Type the new chain over the first 45 % of the step, then show the image.
    const typed = clamp(local / 0.45)
    const common = (() => {
      let n = 0
      while (n < previous.chain.length && previous.chain[n] === step.chain[n]) n++
      return index === 0 ? step.chain.length : n
    })()
    const chain = step.chain.slice(0, common + Math.round((step.chain.length - common) * typed))
    // URL bar
    ctx.save()
    ctx.shadowColor = 'rgba(15, 23, 42, 0.18)'
    ctx.shadowBlur = 24
    ctx.shadowOffsetY = 8
    roundRect(60, 48, W - 120, 76, 16)
    ctx.fillStyle = '#0b1020'
    ctx.fill()
    ctx.restore()
    ctx.font = `20px ${MONO}`
    ctx.textBaseline = 'middle'
    const prefix = 'https://img.example.com/v2/demo/'
    const suffix = `/${'samples/chelsea.png'}?f_auto=true`
    let x = 84
    const maxWidth = W - 168
    const full = ctx.measureText(prefix + chain + suffix).width
    const fontSize = full > maxWidth ? Math.max(12, Math.floor((20 * maxWidth) / full)) : 20
    ctx.font = `${fontSize}px ${MONO}`
    ctx.fillStyle = '#94a3b8'
    ctx.fillText(prefix, x, 86)
    x += ctx.measureText(prefix).width
    ctx.fillStyle = '#a5b4fc'
    ctx.fillText(chain, x, 86)
    x += ctx.measureText(chain).width
    if (typed < 1 && Math.floor(elapsed * 4) % 2 === 0) {
      ctx.fillStyle = '#e2e8f0'
      ctx.fillRect(x + 1, 74, 2, 24)
    }
    ctx.fillStyle = '#94a3b8'
    ctx.fillText(suffix, x + 4, 86)
    // Image card: the previous result until the new chain is typed, then a cross-fade.
    const shown = clamp((local - 0.45) / 0.2)
    const cardX = 200
    const cardY = 160
    const cardW = W - 400
    const cardH = 430
    ctx.save()
    ctx.shadowColor = 'rgba(15, 23, 42, 0.16)'
    ctx.shadowBlur = 30
    ctx.shadowOffsetY = 10
    roundRect(cardX, cardY, cardW, cardH, 20)
    ctx.fillStyle = '#ffffff'
    ctx.fill()
    ctx.restore()
    const draw = (image: ImageBitmap, alpha: number) => {
      const scale = Math.min((cardW - 48) / image.width, (cardH - 96) / image.height)
      const w = image.width * scale
      const h = image.height * scale
      ctx.globalAlpha = alpha
      ctx.drawImage(image, cardX + (cardW - w) / 2, cardY + 24 + (cardH - 96 - h) / 2, w, h)
      ctx.globalAlpha = 1
    }
    const before = stepImages[Math.max(0, index - 1)] as ImageBitmap
    const after = stepImages[index] as ImageBitmap
    if (index === 0) draw(after, clamp(local * 4))
    else {
      draw(before, 1 - shown)
      draw(after, shown)
    }
    const current = shown >= 0.5 || index === 0 ? step : previous
    ctx.textBaseline = 'middle'
    ctx.textAlign = 'left'
    ctx.fillStyle = INK
    ctx.font = `700 24px ${FONT}`
    ctx.fillText(current.label, cardX + 28, cardY + cardH - 36)
    ctx.textAlign = 'right'
    ctx.fillStyle = '#475569'
    ctx.font = `20px ${MONO}`
    const format = current.type.replace('image/', '').toUpperCase()
    ctx.fillText(
      `${format} · ${(current.bytes / 1024).toFixed(0)} KB`,
      cardX + cardW - 28,
      cardY + cardH - 36,
    )
    ctx.textAlign = 'left'
  }

  function endScene(t: number) {
    background()
    ctx.textAlign = 'center'
    ctx.textBaseline = 'alphabetic'
    ctx.globalAlpha = clamp(t * 3)
    gradientText('Tessera', W / 2, H / 2 - 70, 84)
    ctx.fillStyle = INK
    ctx.font = `600 34px ${FONT}`
    ctx.fillText('Store, transform and deliver images by URL', W / 2, H / 2)
    roundRect(W / 2 - 190, H / 2 + 40, 380, 64, 14)
    ctx.fillStyle = '#0b1020'
    ctx.fill()
    ctx.fillStyle = '#a5b4fc'
    ctx.font = `26px ${MONO}`
    ctx.textBaseline = 'middle'
    ctx.fillText('$ npm start', W / 2, H / 2 + 72)
    ctx.fillStyle = BRAND
    ctx.font = `600 24px ${FONT}`
    ctx.fillText('Start for free · self-host it · open source', W / 2, H / 2 + 150)
    ctx.globalAlpha = 1
    ctx.textAlign = 'left'
  }

  function frame(seconds: number) {
    let start = 0
    for (const scene of input.scenes) {
      if (seconds < start + scene.seconds || scene === input.scenes.at(-1)) {
        const t = clamp((seconds - start) / scene.seconds)
        ctx.clearRect(0, 0, W, H)
        if (scene.id === 'title') titleScene(t)
        else if (scene.id === 'home') browserFrame(shots.home, t, 'tessera.example.com')
        else if (scene.id === 'editor') editorScene(t, scene.seconds)
        else if (scene.id === 'tools') browserFrame(shots.tools, t, 'tessera.example.com/ai-tools')
        else endScene(t)
        // Captions are burnt in (the video has no sound) and also given as a WebVTT track.
        if (scene.id !== 'title' && scene.id !== 'end') caption(scene.caption, clamp(t * 6))
        return
      }
      start += scene.seconds
    }
  }

  const total = input.scenes.reduce((sum, scene) => sum + scene.seconds, 0)
  const mimeType = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8'].find((type) =>
    MediaRecorder.isTypeSupported(type),
  )
  if (mimeType === undefined) throw new Error('This Chromium cannot record WebM')
  frame(0)
  const stream = canvas.captureStream(input.fps)
  const recorder = new MediaRecorder(stream, {
    mimeType,
    videoBitsPerSecond: input.bitsPerSecond,
  })
  const chunks: Blob[] = []
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data)
  }
  const stopped = new Promise((resolve) => {
    recorder.onstop = resolve
  })
  recorder.start(1000)
  const started = performance.now()
  await new Promise<void>((resolve) => {
    const tick = () => {
      const seconds = (performance.now() - started) / 1000
      frame(Math.min(seconds, total))
      if (seconds >= total) resolve()
      else setTimeout(tick, 1000 / input.fps)
    }
    tick()
  })
  recorder.stop()
  await stopped
  const durationMs = performance.now() - started
  // The poster: the editor scene with a finished result (rotated, bordered) and its caption.
  const [title, home, editor] = input.scenes
  frame((title?.seconds ?? 0) + (home?.seconds ?? 0) + (editor?.seconds ?? 0) * 0.78)
  const poster = canvas.toDataURL('image/jpeg', 0.82).split(',')[1] as string
  const blob = new Blob(chunks, { type: 'video/webm' })
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return { video: btoa(binary), poster, durationMs, mimeType }
}
