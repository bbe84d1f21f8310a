import { data, Form, useActionData, useLocation, useNavigation } from 'react-router'
import { useCaptcha } from '../components/captcha.tsx'
import { Field, SelectField } from '../components/form-field.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import {
  CAPTCHA_FIELD,
  CONTACT_TOPICS,
  type ContactErrors,
  parseContact,
  topicFromSearch,
} from '../lib/contact.ts'
import { webContext } from '../lib/context.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/contactus.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Contact us',
    description: 'Talk to the Tessera team about sales, a demo, support or partnerships.',
  })

// A refusal's Retry-After (the address's rate limit) reaches the page's answer too.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter === null ? new Headers() : { 'retry-after': retryAfter }
}

// The server caps the body of this action before it is read (http/web.ts), so formData() never
// holds more than a few KB.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const parsed = parseContact(form)
  if (!parsed.ok) return { ok: false as const, errors: parsed.errors }
  const token = form.get(CAPTCHA_FIELD)
  const saved = await context
    .get(webContext)
    .saveContact(
      { ...parsed.value, receivedAt: new Date().toISOString() },
      typeof token === 'string' && token !== '' ? token : undefined,
    )
  if (!saved.ok) {
    const errors: ContactErrors = { form: saved.message }
    return data(
      { ok: false as const, errors },
      {
        status: saved.status,
        ...(saved.retryAfter === undefined
          ? {}
          : { headers: { 'retry-after': String(saved.retryAfter) } }),
      },
    )
  }
  return { ok: true as const, errors: {} }
}

export default function ContactUs() {
  const result = useActionData<typeof action>()
  const navigation = useNavigation()
  const location = useLocation()
  const errors: Partial<Record<string, string>> = result?.errors ?? {}
  const sending = navigation.state === 'submitting'
  // With a captcha configured, its widget sits in the form and adds its token field to it.
  const captcha = useCaptcha('contact')
  // A field with an error is marked invalid and described by it.
  const checked = (name: string) => ({
    'aria-invalid': errors[name] !== undefined,
    'aria-describedby': errors[name] === undefined ? undefined : `${name}-error`,
  })
  const fieldError = (name: string) =>
    errors[name] === undefined ? null : (
      <span className="field-error" id={`${name}-error`}>
        {errors[name]}
      </span>
    )
  return (
    <>
      <PageHero
        eyebrow="Contact us"
        title="Talk to the team"
        lead="Questions about pricing, a demo, self-hosting or a ticket: write to us and a person will answer within one working day."
      />
      <section className="section is-flush-top">
        <div className="container contact-grid">
          <div className="card contact-card">
            {result?.ok === true ? (
              <div className="form-alert is-success" role="status" data-testid="contact-success">
                Thank you. Your message is with us and we will reply by email.
              </div>
            ) : null}
            {result?.ok === false ? (
              <div className="form-alert is-error" role="alert" data-testid="contact-problem">
                {errors.form ?? 'Please correct the fields marked below.'}
              </div>
            ) : null}
            <Form method="post" noValidate>
              <div className="grid cols-2 is-rows-tight">
                <Field id="name" label="Name" autoComplete="name" required {...checked('name')}>
                  {fieldError('name')}
                </Field>
                <Field
                  id="email"
                  label="Work email"
                  type="email"
                  autoComplete="email"
                  required
                  {...checked('email')}
                >
                  {fieldError('email')}
                </Field>
                <Field id="company" label="Company (optional)" autoComplete="organization">
                  {fieldError('company')}
                </Field>
                <SelectField
                  id="topic"
                  label="Topic"
                  defaultValue={topicFromSearch(location.search)}
                  after={fieldError('topic')}
                >
                  {Object.entries(CONTACT_TOPICS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </SelectField>
              </div>
              <div className="field">
                <label htmlFor="message">Message</label>
                <textarea id="message" name="message" required {...checked('message')} />
                {fieldError('message')}
              </div>
              {captcha.widget}
              <button type="submit" className="button is-primary" disabled={sending}>
                {sending ? 'Sending…' : 'Send message'}
              </button>
            </Form>
          </div>
          <aside className="contact-aside">
            <h2>Other ways to reach us</h2>
            <p>
              <strong>Self-hosting help.</strong> The README and docs cover installation and every
              setting.
            </p>
            <p>
              <strong>Security.</strong> Report a vulnerability with the topic “Support ticket”; we
              answer those first.
            </p>
            <p>
              <strong>Partners.</strong> Agencies and platforms can resell hosted plans or embed the
              URL library.
            </p>
          </aside>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
