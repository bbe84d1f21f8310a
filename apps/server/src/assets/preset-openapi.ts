// The declared calls of an organisation's presets (`preset-routes.ts`), a part of the files API.
import { MAX_TRANSFORMATIONS } from '@tessera/url'
import { z } from 'zod'
import {
  type ApiPart,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  json,
  notFoundIn,
  orgCalls,
  pagedList,
  ref,
} from '../http/openapi-kit.ts'

import { badRequest } from './openapi.ts'
import { ASSET_API_BASE } from './paths.ts'
import {
  createPresetBody,
  presetName,
  presetParams,
  presetsQuery,
  updatePresetBody,
} from './presets.ts'

const presetPath = {
  presetName: presetName
    .meta({ example: 'thumbnail' })
    .describe('The preset name (letters, digits, _ and -)'),
}
const ON_PRESET = { '400': badRequest, ...notFoundIn('preset_not_found') }
const presets = orgCalls(ASSET_API_BASE, 'presets')

export const PRESET_API: ApiPart = {
  tags: [],
  schemas: {
    Preset: z.object({
      _id: formatted('uuid'),
      orgId: formatted('uuid'),
      presetName: z.string(),
      name: z.string().describe('The same as presetName'),
      transformation: z.string().describe('Operations joined by ~, e.g. t.resize(w:$w)~t.flip()'),
      params: presetParams,
      archived: z.boolean(),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    PresetList: pagedList('Preset'),
  },
  routes: [
    presets.post('/presets', 'createPreset', 'member', {
      summary: 'Create a preset',
      description: `The transformation is checked as delivery would use it: a pattern the URL language refuses, an undeclared $variable, a missing or archived preset it refers to, a cycle or more than ${MAX_TRANSFORMATIONS} operations answer 400 invalid_transformation with the language’s message.`,
      body: { schema: createPresetBody },
      responses: {
        '201': json(ref('Preset'), 'The new preset'),
        '400': badRequest,
        '409': failure('already_exists: the organisation has a preset of this name'),
        ...JSON_BODY_LIMITS,
      },
    }),
    presets.get('/presets', 'listPresets', 'viewer', {
      summary: 'Presets by name, paged',
      query: presetsQuery,
      responses: { '200': json(ref('PresetList'), 'One page of presets'), '400': badRequest },
    }),
    presets.get('/presets/{presetName}', 'getPreset', 'viewer', {
      summary: 'One preset',
      params: presetPath,
      responses: { '200': json(ref('Preset'), 'The preset'), ...ON_PRESET },
    }),
    presets.patch('/presets/{presetName}', 'updatePreset', 'member', {
      summary: 'Change the transformation or params, or archive (archived: true) / restore',
      params: presetPath,
      body: { schema: updatePresetBody },
      responses: {
        '200': json(ref('Preset'), 'The changed preset'),
        ...ON_PRESET,
        ...JSON_BODY_LIMITS,
      },
    }),
    presets.delete('/presets/{presetName}', 'deletePreset', 'member', {
      summary: 'Delete a preset (delivery URLs using it answer 400 afterwards)',
      params: presetPath,
      responses: { '200': json(ref('Preset'), 'The preset that was deleted'), ...ON_PRESET },
    }),
  ],
}
