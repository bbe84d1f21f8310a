// The product video's script (make-product-video.ts): the sample and the URL-editing steps shown
// on it, the scenes with their lengths and captions, and the captions as WebVTT.

/** One step of the URL-editing scene: the chain typed so far and what it does. */
export interface Step {
  chain: string
  label: string
}

export const FILE = 'samples/chelsea.png'
export const STEPS: Step[] = [
  { chain: 'original', label: 'The upload, as stored' },
  { chain: 't.resize(w:640,h:480)', label: 'Resize to 640 × 480' },
  { chain: 't.resize(w:640,h:480)~t.modulate(b:1.05,s:1.5,h:0)', label: 'Boost colour' },
  {
    chain: 't.resize(w:640,h:480)~t.modulate(b:1.05,s:1.5,h:0)~t.rotate(a:8,b:eef2ff)',
    label: 'Rotate',
  },
  {
    chain:
      't.resize(w:640,h:480)~t.modulate(b:1.05,s:1.5,h:0)~t.rotate(a:8,b:eef2ff)~t.extend(t:24,l:24,b:24,r:24,bc:4f46e5)',
    label: 'Add a border',
  },
  { chain: 't.resize(w:640,h:480)~t.grey()', label: 'Or black and white' },
]

/** The scenes, in seconds; the captions file is written from the same list. */
export const SCENES = [
  { id: 'title', seconds: 2.5, caption: 'Tessera: every image, transformed by its URL.' },
  {
    id: 'home',
    seconds: 3.5,
    caption: 'One self-hosted service runs the website, the API and image delivery.',
  },
  {
    id: 'editor',
    seconds: 12,
    caption: 'Edit the delivery URL and the image changes: resize, colour, rotate, border, grey.',
  },
  {
    id: 'tools',
    seconds: 3,
    caption: 'AI tools and a playground to try it all without an account.',
  },
  { id: 'end', seconds: 2.5, caption: 'Start free, or run it on your own servers with npm start.' },
] as const

export const total = SCENES.reduce((sum, scene) => sum + scene.seconds, 0)

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000)
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`
}

export function captions(): string {
  let at = 0
  const cues = SCENES.map((scene, index) => {
    const cue = `${index + 1}\n${vttTime(at)} --> ${vttTime(at + scene.seconds)}\n${scene.caption}\n`
    at += scene.seconds
    return cue
  })
  return `WEBVTT\n\n${cues.join('\n')}`
}
