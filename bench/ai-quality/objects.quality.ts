// Objects and labels against ground truth: demo photos whose objects are known (chelsea a cat,
// coffee a cup, horse a horse, astronaut and camera a person each), alone and as composites of
// several tiles on one canvas, so the truth is "this tile holds that object". A detection is
// right when its label is its tile's object (labels of things really in a photo but not
// annotated, as coffee's table, are ignored), wrong otherwise. Run at the documented defaults:
// `od.detect()`, `awsRek.detectLabels(l:5,c:55)` (the docs' example) and
// `googleVis.detectLabels(l:5)`.
import { type AiImage, createAi } from '@tessera/ai'
import sharp, { type Sharp } from 'sharp'
import { paramsOf } from '../../packages/ai/src/test-support.ts'
import { printRows } from './metrics.ts'

const SAMPLES = new URL('../../apps/server/demo/samples/', import.meta.url)

interface Photo {
  file: string
  objects: string[]
  /** Really in the photo but not annotated: neither right nor wrong. */
  ignored?: string[]
}

const PHOTOS: Record<string, Photo> = {
  cat: { file: 'chelsea.png', objects: ['cat'] },
  cup: { file: 'coffee.png', objects: ['cup'], ignored: ['dining table', 'spoon', 'bowl'] },
  horse: { file: 'horse.png', objects: ['horse'] },
  astronaut: { file: 'astronaut.png', objects: ['person'] },
  camera: { file: 'camera.png', objects: ['person'] },
}

interface Tile {
  photo: Photo
  left: number
  top: number
  width: number
  height: number
  flip?: boolean
}

interface Case {
  name: string
  width: number
  height: number
  tiles: Tile[]
}

const TILE = 400
const single = (name: string): Photo => PHOTOS[name] as Photo
const row = (names: string[], flips: boolean[] = []): Tile[] =>
  names.map((name, index) => ({
    photo: single(name),
    left: index * TILE,
    top: 0,
    width: TILE,
    height: TILE,
    flip: flips[index] ?? false,
  }))

const CASES: Case[] = [
  ...Object.keys(PHOTOS).map((name) => ({
    name,
    width: 0,
    height: 0,
    tiles: [{ photo: single(name), left: 0, top: 0, width: 0, height: 0 }],
  })),
  {
    name: 'three people',
    width: 3 * TILE,
    height: TILE,
    tiles: row(['astronaut', 'camera', 'astronaut'], [false, false, true]),
  },
  { name: 'cat, cup, person', width: 3 * TILE, height: TILE, tiles: row(['cat', 'cup', 'camera']) },
  {
    name: 'cat, horse, cup, person (2×2)',
    width: 2 * TILE,
    height: 2 * TILE,
    tiles: [
      ...row(['cat', 'horse']),
      ...row(['cup', 'astronaut']).map((tile) => ({ ...tile, top: TILE })),
    ],
  },
]

async function raw(pipeline: Sharp): Promise<AiImage> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

// The case's image; a single photo's tile becomes the whole image.
async function build(test: Case): Promise<AiImage> {
  const first = test.tiles[0] as Tile
  if (test.width === 0) {
    const file = new URL(first.photo.file, SAMPLES).pathname
    const image = await raw(sharp(file).toColourspace('srgb'))
    Object.assign(first, { width: image.width, height: image.height })
    return image
  }
  const layers = await Promise.all(
    test.tiles.map(async (tile) => {
      let photo = sharp(new URL(tile.photo.file, SAMPLES).pathname)
      if (tile.flip === true) photo = photo.flop()
      const input = await photo
        .resize(tile.width, tile.height, { fit: 'contain', background: '#808080' })
        .png()
        .toBuffer()
      return { input, left: tile.left, top: tile.top }
    }),
  )
  return await raw(
    sharp({
      create: { width: test.width, height: test.height, channels: 3, background: '#808080' },
    })
      .composite(layers)
      .toColourspace('srgb'),
  )
}

interface Found {
  label: string
  score: number
  box: { left: number; top: number; width: number; height: number }
}

// Instances: each detection goes to the tile its centre lies in.
function score(test: Case, found: Found[]) {
  let right = 0
  let wrong = 0
  let truth = 0
  const wrongLabels: string[] = []
  const left = test.tiles.map((tile) => [...tile.photo.objects])
  for (const tile of test.tiles) truth += tile.photo.objects.length
  for (const object of found) {
    const cx = object.box.left + object.box.width / 2
    const cy = object.box.top + object.box.height / 2
    const index = test.tiles.findIndex(
      (tile) =>
        cx >= tile.left &&
        cx < tile.left + tile.width &&
        cy >= tile.top &&
        cy < tile.top + tile.height,
    )
    const tile = test.tiles[index]
    const wanted = left[index]
    const at = wanted?.indexOf(object.label) ?? -1
    if (wanted !== undefined && at >= 0) {
      wanted.splice(at, 1)
      right += 1
    } else if (tile?.photo.ignored?.includes(object.label) !== true) {
      wrong += 1
      wrongLabels.push(`${object.label} ${object.score.toFixed(2)}`)
    }
  }
  return { right, wrong, truth, wrongLabels }
}

// Labels: right when some tile holds that object.
function scoreLabels(test: Case, labels: { name: string }[]) {
  const wanted = new Set(test.tiles.flatMap((tile) => tile.photo.objects))
  const ignored = new Set(test.tiles.flatMap((tile) => tile.photo.ignored ?? []))
  const names = labels.map((label) => label.name)
  const right = names.filter((name) => wanted.has(name)).length
  const wrong = names.filter((name) => !wanted.has(name) && !ignored.has(name)).length
  return { right, wrong, wanted: wanted.size, names }
}

const ai = createAi({ timeoutMs: 600_000 })
const rows: Record<string, string | number>[] = []
const labelRows: Record<string, string | number>[] = []
const totals = { right: 0, wrong: 0, truth: 0, labelRight: 0, labelWrong: 0, labelWanted: 0 }
const totalsG = { right: 0, wrong: 0, wanted: 0 }
let empty = 0
try {
  for (const test of CASES) {
    const image = await build(test)
    const od = await ai.run({ key: 'od.detect', image, params: paramsOf('od.detect') })
    const found = (od.data?.objects ?? []) as Found[]
    const instances = score(test, found)
    totals.right += instances.right
    totals.wrong += instances.wrong
    totals.truth += instances.truth
    rows.push({
      case: test.name,
      objects: instances.truth,
      found: instances.right,
      wrong: instances.wrong,
      recall: instances.right / instances.truth,
      precision: found.length === 0 ? 1 : instances.right / (instances.right + instances.wrong),
      'wrong labels': instances.wrongLabels.join(', '),
    })
    const aws = await ai.run({
      key: 'awsRek.detectLabels',
      image,
      params: paramsOf('awsRek.detectLabels', { l: 5, c: 55 }),
    })
    const awsLabels = (aws.data?.labels ?? []) as { name: string; score: number }[]
    const google = await ai.run({
      key: 'googleVis.detectLabels',
      image,
      params: paramsOf('googleVis.detectLabels', { l: 5 }),
    })
    const googleLabels = (google.data?.labels ?? []) as { name: string; score: number }[]
    const a = scoreLabels(test, awsLabels)
    const g = scoreLabels(test, googleLabels)
    if (awsLabels.length === 0) empty += 1
    totals.labelRight += a.right
    totals.labelWrong += a.wrong
    totals.labelWanted += a.wanted
    totalsG.right += g.right
    totalsG.wrong += g.wrong
    totalsG.wanted += g.wanted
    labelRows.push({
      case: test.name,
      'awsRek(l:5,c:55)': awsLabels.map((l) => `${l.name} ${l.score.toFixed(2)}`).join(', '),
      'googleVis(l:5)': googleLabels.map((l) => `${l.name} ${l.score.toFixed(2)}`).join(', '),
    })
  }
  console.log('od.detect() — instances, each detection judged by the tile its centre is in:\n')
  printRows(rows)
  console.log('\nLabels returned:\n')
  printRows(labelRows)
  console.log('\nTotals:\n')
  printRows([
    {
      measure: 'od.detect instances',
      recall: totals.right / totals.truth,
      precision: totals.right / Math.max(1, totals.right + totals.wrong),
      note: `${totals.right} of ${totals.truth} found, ${totals.wrong} wrong`,
    },
    {
      measure: 'awsRek.detectLabels(l:5,c:55) labels',
      recall: totals.labelRight / totals.labelWanted,
      precision: totals.labelRight / Math.max(1, totals.labelRight + totals.labelWrong),
      note: `empty on ${empty} of ${CASES.length} images`,
    },
    {
      measure: 'googleVis.detectLabels(l:5) labels',
      recall: totalsG.right / totalsG.wanted,
      precision: totalsG.right / Math.max(1, totalsG.right + totalsG.wrong),
      note: '',
    },
  ])
} finally {
  await ai.close()
}
