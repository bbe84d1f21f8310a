// What the console's calls answer and take (docs/api.md): files, folders, presets, the
// organisation, credits and payments, members, invitations, API tokens and security settings.

export interface ApiPage {
  current: number
  size: number
  hasNext: boolean
  itemTotal: number
}

export interface Paged<T> {
  items: T[]
  page: ApiPage
}

export interface FileItem {
  _id: string
  fileId: string
  type: 'file'
  name: string
  path: string
  fullPath: string
  format: string
  contentType: string
  assetType?: string
  size: number
  width: number | null
  height: number | null
  /** A video's length in seconds. */
  duration?: number
  /** A video's codec and frames (issue 23). */
  video?: {
    duration: number
    codec: string
    frameRate: number
    frames: number
    audioCodec?: string
  }
  /** A document's page count (PDF), when the server reads it. */
  pages?: number
  version: number
  /** private: delivered only through signed URLs (absent from servers before issue 22). */
  access?: 'public-read' | 'private'
  tags?: string[]
  metadata?: Record<string, unknown>
  url: string
  createdAt: string
  updatedAt: string
}

/** What a file update may change (docs/api.md). */
export interface FileChanges {
  name?: string
  path?: string
  access?: 'public-read' | 'private'
  tags?: string[]
  metadata?: Record<string, unknown>
}

export interface FolderItem {
  _id: string | null
  type: 'folder'
  name: string
  path: string
  fullPath: string
  createdAt: string | null
}

export type LibraryItem = FileItem | FolderItem

/** What an organisation uses (docs/api.md, "Usage and recent files"). */
export interface Usage {
  storage: { files: number; bytes: number }
  /** `budgetBytes` is the server's budget for every organisation's derived images together. */
  derivedCache: { entries: number; bytes: number; budgetBytes: number }
  credits: { balance: number }
}

export interface Preset {
  _id: string
  presetName: string
  transformation: string
  params: Record<string, PresetParam>
  archived: boolean
  createdAt: string
  updatedAt: string
}

export interface PresetParam {
  type: string
  default?: unknown
  enum?: string[]
  min?: number
  max?: number
}

export interface OrganisationDetails {
  _id: string
  name: string
  cloudName: string
  role: string
  planId: number
  credits: number
  requireSignedUrls?: boolean
  createdAt: string
}

export interface Credits {
  balance: number
  plan: {
    _id: number
    name: string
    amount: number
    currency: string
    interval: string
    credits: number
  } | null
  subscription: {
    planId: number
    status: string
    provider: string
    currentPeriodStart: string
    currentPeriodEnd: string
    /** Canceled by the owner: it runs to currentPeriodEnd and is not renewed. */
    cancelAtPeriodEnd?: boolean
  } | null
}

export interface LedgerEntry {
  _id: string
  delta: number
  balance: number
  reason: string
  reference: string | null
  createdAt: string
}

export interface Payment {
  paymentId: string
  kind: 'subscription' | 'topup'
  itemId: number
  amount: number
  currency: string
  credits: number
  status: 'pending' | 'paid' | 'failed' | 'canceled'
  /** Only while the payment is pending. */
  checkoutUrl?: string
  createdAt: string
  completedAt: string | null
  /** `R-000042` once paid: its receipt's number. */
  receiptNumber?: string | null
}

export interface Member {
  _id: string
  email: string
  firstName: string
  lastName: string
  role: string
  joinedAt: string
}

export interface Invitation {
  _id: string
  email: string
  role: string
  createdAt: string
  expiresAt: string
  token?: string
  acceptUrl?: string
}

export interface ApiToken {
  _id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  token?: string
}

/** Security settings of an organisation (docs/api.md, organisation settings). */
export interface OrgSettings {
  requireSignedUrls: boolean
  strictTransformations: boolean
  allowRawFiles: boolean
}

export interface SigningKey {
  _id: string
  accessKey: string
  createdAt: string
  revokedAt?: string | null
  /** Shown once, when the key is made. */
  secret?: string
}
