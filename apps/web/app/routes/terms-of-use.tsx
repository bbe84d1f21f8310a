import { Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/terms-of-use.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Terms of use',
    description: 'The terms that apply when you use the Tessera website, console and API.',
  })

export default function TermsOfUse() {
  return (
    <>
      <PageHero flush eyebrow="Legal" title="Terms of use" lead="Last updated 21 November 2026." />
      <section className="section is-flush-top">
        <div className="container prose">
          <p>
            By using this website, the console or the API you agree to these terms. If you use
            Tessera for an organisation, you accept them on its behalf.
          </p>
          <h2>Your account</h2>
          <p>
            Keep your password secret and tell us at once if you think someone else used your
            account. You are responsible for what happens under it.
          </p>
          <h2>Your content</h2>
          <p>
            You keep every right to the files you upload. You give the service the permission it
            needs to store, transform and deliver them for you, and nothing more.
          </p>
          <h2>Acceptable use</h2>
          <ul>
            <li>Upload and process only content you have the rights to.</li>
            <li>Do not use the service to break the law or to harm others.</li>
            <li>Do not try to get around limits, signatures or access controls.</li>
          </ul>
          <h2 id="caution-notice">Caution notice</h2>
          <p>
            AI tools (background removal, upscaling, watermark removal and others) produce automatic
            results that can be wrong. Check results before you publish them. Removing a watermark
            from an image you do not own the rights to may be unlawful: the watermark remover is
            meant for your own images only.
          </p>
          <h2>Plans and credits</h2>
          <p>
            Paid plans renew each period until you cancel. Credits of a period do not carry over;
            top-up credits stay while your account is active.
          </p>
          <h2>Software licence</h2>
          <p>
            Tessera is free software under the GNU AGPL-3.0-or-later. These terms cover the use of
            this installation; the licence covers the software.
          </p>
          <h2>Contact</h2>
          <p>
            Questions about these terms: <Link to="/contactus">contact us</Link>.
          </p>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
