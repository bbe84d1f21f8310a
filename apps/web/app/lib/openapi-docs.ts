// The REST API reference page, written as Markdown from the server's OpenAPI 3.1 document:
// one section per tag, one entry per call with its parameters, body and answers.

interface Schema {
  type?: string | string[]
  enum?: unknown[]
  format?: string
  minimum?: number
  maximum?: number
  default?: unknown
  items?: Schema
  $ref?: string
}

interface Parameter {
  $ref?: string
  name?: string
  in?: string
  required?: boolean
  description?: string
  schema?: Schema
}

interface Operation {
  summary?: string
  description?: string
  tags?: string[]
  parameters?: Parameter[]
  requestBody?: { content?: Record<string, unknown>; description?: string; required?: boolean }
  responses?: Record<string, { description?: string; $ref?: string }>
  security?: unknown[]
}

export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string }
  tags?: { name: string; description?: string }[]
  paths?: Record<string, Record<string, unknown>>
  components?: { parameters?: Record<string, Parameter> }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const

/** Table cells hold no pipes or line breaks. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

function typeOf(schema: Schema | undefined): string {
  if (schema === undefined) return ''
  if (schema.$ref !== undefined) return schema.$ref.split('/').pop() ?? ''
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? '')
  if (type === 'array') return `array of ${typeOf(schema.items) || 'values'}`
  return schema.format === undefined ? type : `${type} (${schema.format})`
}

function constraints(schema: Schema | undefined): string {
  if (schema === undefined) return ''
  const parts: string[] = []
  if (schema.enum !== undefined)
    parts.push(`one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`)
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    parts.push(`${schema.minimum}–${schema.maximum}`)
  } else if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`)
  else if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`)
  if (schema.default !== undefined) parts.push(`default \`${JSON.stringify(schema.default)}\``)
  return parts.join('; ')
}

function resolveParameter(document: OpenApiDocument, parameter: Parameter): Parameter {
  if (parameter.$ref === undefined) return parameter
  const name = parameter.$ref.split('/').pop() ?? ''
  return document.components?.parameters?.[name] ?? parameter
}

/** The reference as Markdown; a document with no paths gives a short note instead. */
export function openApiMarkdown(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>()
  const tagOrder = (document.tags ?? []).map((tag) => tag.name)
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const shared = (item.parameters as Parameter[] | undefined) ?? []
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined
      if (operation === undefined) continue
      const tag = operation.tags?.[0] ?? 'other'
      if (!tagOrder.includes(tag)) tagOrder.push(tag)
      const out: string[] = []
      out.push(`### ${method.toUpperCase()} ${path}`, '')
      if (operation.summary !== undefined) out.push(operation.summary, '')
      if (operation.description !== undefined && operation.description !== operation.summary) {
        out.push(operation.description, '')
      }
      const parameters = [...shared, ...(operation.parameters ?? [])].map((parameter) =>
        resolveParameter(document, parameter),
      )
      if (parameters.length > 0) {
        out.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|')
        for (const parameter of parameters) {
          const notes = [parameter.description ?? '', constraints(parameter.schema)]
            .filter((part) => part !== '')
            .join(' — ')
          out.push(
            `| \`${cell(parameter.name ?? '')}\` | ${parameter.in ?? ''} | ${cell(typeOf(parameter.schema))} | ${parameter.required === true ? 'yes' : 'no'} | ${cell(notes)} |`,
          )
        }
        out.push('')
      }
      if (operation.requestBody !== undefined) {
        const types = Object.keys(operation.requestBody.content ?? {})
          .map((type) => `\`${type}\``)
          .join(', ')
        out.push(
          `Body${operation.requestBody.required === true ? ' (required)' : ''}: ${types}${operation.requestBody.description === undefined ? '' : ` — ${operation.requestBody.description}`}`,
          '',
        )
      }
      const responses = Object.entries(operation.responses ?? {})
      if (responses.length > 0) {
        out.push(
          `Answers: ${responses
            .map(([status, response]) =>
              response.description === undefined
                ? `\`${status}\``
                : `\`${status}\` ${response.description.replace(/\s*\n\s*/g, ' ')}`,
            )
            .join('; ')}`,
          '',
        )
      }
      const list = byTag.get(tag) ?? []
      list.push(out.join('\n'))
      byTag.set(tag, list)
    }
  }
  if (byTag.size === 0) return 'The server answered no OpenAPI paths.'
  const sections: string[] = []
  for (const tag of tagOrder) {
    const entries = byTag.get(tag)
    if (entries === undefined) continue
    const description = document.tags?.find((entry) => entry.name === tag)?.description
    sections.push(`## ${tag}`, '', ...(description === undefined ? [] : [description, '']))
    sections.push(...entries)
  }
  return sections.join('\n')
}
