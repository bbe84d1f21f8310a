// The content files: the ones in the repository load, and a broken one stops the server with a
// message naming the file and the field.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CATALOGUE } from '@tessera/url'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { createLogger } from '../platform/logger.ts'
import { createServices } from '../services.ts'
import {
  CONTENT_DIR,
  CONTENT_FILES,
  ContentError,
  DEFAULT_APP_DESCRIPTION,
  DEFAULT_APP_THUMBNAIL,
  DEFAULT_APP_TITLE,
  deliveryPathProblem,
  FREE_PLAN_CREDITS,
  FREE_PLAN_ID,
  inputFieldOf,
  loadContent,
} from './content.ts'

const folders: string[] = []

/** A copy of the repository's content folder, with `name` replaced by `edit` of its data. */
async function contentWith(
  name: string,
  edit: (data: unknown) => unknown,
  raw?: string,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-content-'))
  folders.push(dir)
  await cp(CONTENT_DIR, dir, { recursive: true })
  const path = join(dir, name)
  const data = JSON.parse(await readFile(path, 'utf8')) as unknown
  await writeFile(path, raw ?? JSON.stringify(edit(data)))
  return dir
}

type Entries = Record<string, unknown>[]
const first = (data: unknown) => (data as Entries)[0] as Record<string, unknown>

afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function expectBroken(dir: string, file: string, ...mentions: string[]) {
  const error = await loadContent(dir).then(
    () => undefined,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(ContentError)
  const message = (error as ContentError).message
  expect(message).toContain(file)
  expect((error as ContentError).file).toContain(file)
  for (const mention of mentions) expect(message).toContain(mention)
}

describe('the content files in the repository', () => {
  it('load and pass validation', async () => {
    const content = await loadContent()
    expect(content.productSections).toHaveLength(6)
    expect(content.websites.length).toBeGreaterThan(0)
    expect(content.apps.length).toBeGreaterThanOrEqual(9)
    expect(content.predictions.length).toBeGreaterThanOrEqual(4)
  })

  it('hold the free plan with id -994 and 50 credits, and monthly and yearly plans', async () => {
    const { plans } = await loadContent()
    expect(plans.find((plan) => plan.id === FREE_PLAN_ID)).toMatchObject({
      amount: 0,
      credits: FREE_PLAN_CREDITS,
    })
    expect(plans.some((plan) => plan.interval === 'monthly' && plan.amount > 0)).toBe(true)
    expect(plans.some((plan) => plan.interval.startsWith('yearly'))).toBe(true)
  })

  it('hold at least one app that shows the defaults', async () => {
    const { apps } = await loadContent()
    expect(apps).toContainEqual(
      expect.objectContaining({
        title: DEFAULT_APP_TITLE,
        description: DEFAULT_APP_DESCRIPTION,
        thumbnailURL: DEFAULT_APP_THUMBNAIL,
      }),
    )
  })
})

describe('a broken content file', () => {
  it('that is not JSON names the file', async () => {
    const dir = await contentWith(CONTENT_FILES.plans, (data) => data, '[{"id": -994,')
    await expectBroken(dir, 'plans.json', 'not valid JSON')
  })

  it('that is missing names the file', async () => {
    const dir = await contentWith(CONTENT_FILES.apps, (data) => data)
    await rm(join(dir, CONTENT_FILES.apps))
    await expectBroken(dir, 'dynamic-apps.json', 'could not be read')
  })

  it('without the free plan names the rule', async () => {
    const dir = await contentWith(CONTENT_FILES.plans, (data) =>
      (data as Entries).filter((plan) => plan.id !== FREE_PLAN_ID),
    )
    await expectBroken(dir, 'plans.json', '-994')
  })

  it('with a wrong type names the field', async () => {
    const dir = await contentWith(CONTENT_FILES.plans, (data) => {
      first(data).amount = 'free'
      return data
    })
    await expectBroken(dir, 'plans.json', '[0].amount')
  })

  it('with an unknown field (a typo) names it', async () => {
    const dir = await contentWith(CONTENT_FILES.apps, (data) => {
      first(data).titel = 'Typo'
      return data
    })
    await expectBroken(dir, 'dynamic-apps.json', 'titel')
  })

  it('with an app whose transformation does not parse names the problem', async () => {
    const dir = await contentWith(CONTENT_FILES.apps, (data) => {
      first(data).transformation = 'erase.bg(i:plasma)'
      return data
    })
    await expectBroken(dir, 'dynamic-apps.json', '[0].transformation', 'plasma')
  })

  it('with a duplicate slug names it', async () => {
    const dir = await contentWith(CONTENT_FILES.apps, (data) => {
      const apps = data as Entries
      return [...apps, { ...apps[0] }]
    })
    await expectBroken(dir, 'dynamic-apps.json', 'duplicate slug background-remover')
  })

  it('with a thumbnail the server could not deliver names it', async () => {
    const dir = await contentWith(CONTENT_FILES.apps, (data) => {
      first(data).thumbnailURL = '/v2/demo/t.nothing()/samples/coffee.png'
      return data
    })
    await expectBroken(dir, 'dynamic-apps.json', '[0].thumbnailURL')
  })

  it('with a prediction of an unknown operation names it', async () => {
    const dir = await contentWith(CONTENT_FILES.predictions, (data) => {
      first(data).operation = 'erase.everything'
      return data
    })
    await expectBroken(dir, 'predictions.json', '[0].operation')
  })

  it('with a section of one card names it', async () => {
    const dir = await contentWith(CONTENT_FILES.productSections, (data) => {
      const section = first(data)
      section.cards = (section.cards as unknown[]).slice(0, 1)
      return data
    })
    await expectBroken(dir, 'product-sections.json', '[0].cards')
  })

  it('with an unknown social network names it', async () => {
    const dir = await contentWith(CONTENT_FILES.websites, (data) => {
      first(data).socialMediaLinks = [{ identifier: 'myspace', link: 'https://myspace.com/x' }]
      return data
    })
    await expectBroken(dir, 'website.json', 'socialMediaLinks')
  })

  it('with an announcement that ends before it starts names it', async () => {
    const dir = await contentWith(CONTENT_FILES.announcements, (data) => {
      first(data).endsAt = '2000-01-01T00:00:00.000Z'
      return data
    })
    await expectBroken(dir, 'announcements.json', 'endsAt')
  })

  it('stops the services before the database is opened', async () => {
    const dir = await contentWith(CONTENT_FILES.addons, (data) => {
      first(data).currency = 'dollars'
      return data
    })
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' })
    await expect(
      createServices(config, createLogger(config), { databaseDir: 'memory://', contentDir: dir }),
    ).rejects.toThrow(/addons\.json is invalid: \[0\]\.currency/)
  })
})

describe('blank fields', () => {
  it('count as missing, so an app gets the defaults', async () => {
    const dir = await contentWith(CONTENT_FILES.apps, (data) => {
      Object.assign(first(data), { title: '', description: '  ', thumbnailURL: '' })
      return data
    })
    const [app] = (await loadContent(dir)).apps
    expect(app).toMatchObject({
      title: DEFAULT_APP_TITLE,
      description: DEFAULT_APP_DESCRIPTION,
      thumbnailURL: DEFAULT_APP_THUMBNAIL,
    })
  })
})

describe('deliveryPathProblem', () => {
  it('accepts a path the server can deliver and explains one it cannot', () => {
    expect(deliveryPathProblem('/v2/demo/t.resize(w:480)/samples/astronaut.png')).toBeUndefined()
    expect(deliveryPathProblem('/v2/demo/t.resize(w:abc)/samples/astronaut.png')).toMatch(/w/)
    expect(deliveryPathProblem('/nonsense')).toBeDefined()
  })
})

describe('inputFieldOf', () => {
  it('turns every parameter type of the catalogue into a JSON-schema field', () => {
    const seen = new Set<string>()
    for (const plugin of CATALOGUE.plugins) {
      for (const operation of plugin.operations) {
        for (const param of operation.params) {
          const field = inputFieldOf(param)
          seen.add(param.type)
          expect(['string', 'integer', 'number', 'boolean']).toContain(field.type)
          expect(field.title).toBe(param.title)
          expect(field['x-param']).toBe(param.id)
          if (param.type === 'enum') expect(field.enum).toEqual(param.enum)
          if (param.default !== null && field.type === 'string') {
            expect(typeof field.default).toBe('string')
          }
        }
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(6)
  })
})
