// A platform prediction's multipart body (`@pixelbin/admin`'s predictions.create): fields
// `input.<name>` as text, typed by the prediction's input schema (numbers, true/false), the image
// as a file part `input.image` or as text (a URL or a file path), and `webhook`. Anything else is
// refused with 400 naming the field, never dropped.
import type { Context } from 'hono'
import type { Prediction } from '../content/content.ts'
import { HttpError } from '../http/errors.ts'

export interface PredictionForm {
  /** The input the prediction checks (`image` as text when it was not a file). */
  input: Record<string, unknown>
  /** The image sent as bytes. */
  image: { data: Buffer; name: string } | undefined
  webhook: string | undefined
  /** The input as given, to show again (a file as its name). */
  echo: Record<string, unknown>
}

const invalid = (message: string) => new HttpError(400, 'invalid_input', message)

/**
 * Pixelbin's own names of some inputs (its SDK's README sends `erase_bg` with `industry_type`,
 * `quality_type`, `shadow`, `refine`): each maps onto this server's input, or — `quality_type`
 * — is taken only with the value that changes nothing here (the cut-out is always made at the
 * image's own size), and refused with any other.
 */
const PIXELBIN_INPUTS: Record<string, Record<string, string | { only: string }>> = {
  erase_bg: { shadow: 'addShadow', quality_type: { only: 'original' } },
}

/** `industry_type` → `industryType`. */
const camelCase = (name: string) =>
  name.replace(/_([a-z0-9])/g, (_all, letter) => letter.toUpperCase())

/**
 * The input's name on this server for a name Pixelbin's SDK sends, or undefined for a Pixelbin
 * input that has no effect here (checked against its one accepted value).
 */
function inputName(prediction: Prediction, name: string, value: unknown): string | undefined {
  const { properties } = prediction.inputSchema
  if (name in properties) return name
  const alias = PIXELBIN_INPUTS[prediction.id]?.[name]
  if (typeof alias === 'string') return alias
  if (alias !== undefined) {
    if (value !== alias.only) throw invalid(`input.${name} must be ${alias.only} on this server`)
    return undefined
  }
  const camel = camelCase(name)
  return camel in properties ? camel : name
}

/** A text value typed by its field of the input schema; unchanged when it does not read. */
function typed(prediction: Prediction, name: string, text: string): unknown {
  const field = prediction.inputSchema.properties[name]
  if (field === undefined) return text
  if ((field.type === 'integer' || field.type === 'number') && /^-?[0-9]+(\.[0-9]+)?$/.test(text)) {
    return Number(text)
  }
  if (field.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

export async function readPredictionForm(
  c: Context,
  prediction: Prediction,
): Promise<PredictionForm> {
  const type = (c.req.header('content-type') ?? '').toLowerCase()
  if (!type.startsWith('multipart/form-data')) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send the input as multipart/form-data: input.<field> parts and an optional webhook',
    )
  }
  let form: FormData
  try {
    form = await c.req.formData()
  } catch (error) {
    throw new HttpError(400, 'invalid_multipart', 'The multipart body is malformed', {
      cause: error,
    })
  }
  const input: Record<string, unknown> = {}
  const echo: Record<string, unknown> = {}
  let image: PredictionForm['image']
  let webhook: string | undefined
  for (const [key, value] of form.entries()) {
    if (key === 'webhook') {
      if (typeof value !== 'string') throw invalid('webhook must be a URL')
      webhook = value
      continue
    }
    if (!key.startsWith('input.')) {
      throw invalid(
        `${JSON.stringify(key.slice(0, 40))} is not a field: send input.<name> or webhook`,
      )
    }
    const name = inputName(prediction, key.slice('input.'.length), value)
    if (name === undefined) continue
    if (name in input || (name === 'image' && image !== undefined)) {
      throw invalid(`input.${name.slice(0, 40)} is given twice`)
    }
    if (typeof value !== 'string') {
      if (name !== 'image') throw invalid(`input.${name.slice(0, 40)} must be text, not a file`)
      image = { data: Buffer.from(await value.arrayBuffer()), name: value.name }
      echo.image = value.name
      continue
    }
    input[name] = typed(prediction, name, value)
    echo[name] = value
  }
  if (image === undefined && input.image === undefined) {
    throw invalid('input.image is required: a file part, or a URL or file path as text')
  }
  return { input, image, webhook, echo }
}
