import { useConfig } from '../lib/app-context.tsx'
import { type BlogPost, formatPostDate, postUrl } from '../lib/blog.ts'
import { ArrowRight } from './icons.tsx'
import { MediaCard } from './media-card.tsx'
import { SmartLink } from './nav-link.tsx'

/** The newest blog posts (SPEC §3 recentBlog), each linking to the post on the blog. */
export function RecentPosts({ posts }: { posts: BlogPost[] }) {
  const config = useConfig()
  return (
    <section
      className="section recent-posts"
      aria-labelledby="blog-title"
      data-testid="recent-posts"
    >
      <div className="container">
        <div className="section-header recent-posts-header">
          <div>
            <h2 id="blog-title">From the blog</h2>
            <p>Release notes and how-tos from the people who build Tessera.</p>
          </div>
          {config.blogUrl === '' ? null : (
            <SmartLink className="button is-secondary" href={config.blogUrl}>
              Visit the blog <ArrowRight size={18} />
            </SmartLink>
          )}
        </div>
        <div className="grid cols-3">
          {posts.map((post) => {
            return (
              <MediaCard
                key={post.slug}
                className="post-card"
                image={
                  post.cover === undefined
                    ? undefined
                    : { url: post.cover.url, width: 640, height: 360, loading: 'lazy' }
                }
              >
                <p className="post-meta">
                  <time dateTime={post.publishedAt}>{formatPostDate(post.publishedAt)}</time>
                  {post.author === undefined ? null : <span> · {post.author.name}</span>}
                </p>
                <h3>
                  <SmartLink className="post-link" href={postUrl(config, post)}>
                    {post.title}
                  </SmartLink>
                </h3>
                <p className="post-excerpt">{post.excerpt}</p>
                {/* The title's link covers the card; this only shows where it goes. */}
                <span className="card-link" aria-hidden="true">
                  Read the post
                </span>
              </MediaCard>
            )
          })}
        </div>
      </div>
    </section>
  )
}
