import { Link } from 'react-router'
import { PageHero } from '../components/page-hero.tsx'
import { PageSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { useConfig } from '../lib/app-context.tsx'
import { sampleImage } from '../lib/images.ts'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/about-us.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'About us',
    description: 'Why we build Tessera: image infrastructure you can own, read and run yourself.',
  })

const VALUES = [
  {
    title: 'Own your pipeline',
    text: 'Your originals stay in your storage, on your servers. Nothing is locked behind a vendor.',
  },
  {
    title: 'One language for images',
    text: 'The same URL grammar runs in the browser, on the server and in the docs. Learn it once.',
  },
  {
    title: 'Fast by default',
    text: 'Cached results, streaming uploads and one libvips pipeline per core. We measure every release.',
  },
]

export default function AboutUs() {
  const config = useConfig()
  const photo = sampleImage(config.deliveryUrl, 'hubble_deep_field.jpg', {
    maxWidth: 1200,
    aspect: 3,
    sizes: '(max-width: 1200px) 100vw, 1200px',
  })
  return (
    <>
      <PageHero
        eyebrow="About us"
        title="Image infrastructure you can own"
        lead="Tessera started from a simple wish: the convenience of a hosted image service, with the control of software you run yourself."
      />
      <section className="section">
        <div className="container">
          <img
            {...photo}
            alt="The Hubble deep field: thousands of galaxies"
            width={1200}
            height={400}
            className="about-banner"
          />
        </div>
      </section>
      <PageSection title="What we believe" className="is-alt">
        <div className="grid cols-3">
          {VALUES.map((value) => (
            <article key={value.title} className="card">
              <h3>{value.title}</h3>
              <p>{value.text}</p>
            </article>
          ))}
        </div>
      </PageSection>
      <section className="section">
        <div className="container prose">
          <h2>Open source, AGPL</h2>
          <p>
            The service is licensed under the GNU AGPL-3.0-or-later, and the URL library is MIT so
            you can embed it in any front end. Read the code, run it, change it, and send us your
            improvements.
          </p>
          <p>
            <Link to="/contactus">Talk to us</Link> about support, hosting or a feature you need.
          </p>
        </div>
      </section>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
