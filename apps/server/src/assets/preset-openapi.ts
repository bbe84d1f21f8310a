// The declared calls of an organisation's presets (`preset-routes.ts`), a part of the files API.
import { MAX_TRANSFORMATIONS } from '@tessera/url'
import { z } from 'zod'
import {
  type ApiPart,
  dateTime,
  failure,
  formatted,
  JSON_BODY_LIMITS,
  orgRoute,
  pagedList,
  ref,
} from '../http/openapi-kit.ts'

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
const failures = failure(
  'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
)

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
    orgRoute({
      method: 'post',
      path: `${ASSET_API_BASE}/{orgId}/presets`,
      operationId: 'createPreset',
      access: { role: 'member' },
      summary: 'Create a preset',
      description: `The transformation is checked as delivery would use it: a pattern the URL language refuses, an undeclared $variable, a missing or archived preset it refers to, a cycle or more than ${MAX_TRANSFORMATIONS} operations answer 400 invalid_transformation with the language’s message.`,
      tags: ['presets'],
      body: { schema: createPresetBody },
      responses: {
        '201': { description: 'The new preset', schema: ref('Preset') },
        '400': failures,
        '409': failure('already_exists: the organisation has a preset of this name'),
        ...JSON_BODY_LIMITS,
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/presets`,
      operationId: 'listPresets',
      access: { role: 'viewer' },
      summary: 'Presets by name, paged',
      tags: ['presets'],
      query: presetsQuery,
      responses: {
        '200': { description: 'One page of presets', schema: ref('PresetList') },
        '400': failures,
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/presets/{presetName}`,
      operationId: 'getPreset',
      access: { role: 'viewer' },
      summary: 'One preset',
      tags: ['presets'],
      params: presetPath,
      responses: {
        '200': { description: 'The preset', schema: ref('Preset') },
        '400': failures,
        '404': failure('organisation_not_found, or preset_not_found'),
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ASSET_API_BASE}/{orgId}/presets/{presetName}`,
      operationId: 'updatePreset',
      access: { role: 'member' },
      summary: 'Change the transformation or params, or archive (archived: true) / restore',
      tags: ['presets'],
      params: presetPath,
      body: { schema: updatePresetBody },
      responses: {
        '200': { description: 'The changed preset', schema: ref('Preset') },
        '400': failures,
        '404': failure('organisation_not_found, or preset_not_found'),
        ...JSON_BODY_LIMITS,
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ASSET_API_BASE}/{orgId}/presets/{presetName}`,
      operationId: 'deletePreset',
      access: { role: 'member' },
      summary: 'Delete a preset (delivery URLs using it answer 400 afterwards)',
      tags: ['presets'],
      params: presetPath,
      responses: {
        '200': { description: 'The preset that was deleted', schema: ref('Preset') },
        '400': failures,
        '404': failure('organisation_not_found, or preset_not_found'),
      },
    }),
  ],
}
