// The part of `@pixelbin/admin` 4.2 (CommonJS, no types) that the platform suite drives. Calls
// answer the server's JSON as it is; the suite checks what it reads.
declare module '@pixelbin/admin' {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK answers untyped JSON
  type Answer = any
  type Call = (args?: Record<string, unknown>) => Promise<Answer>

  type AssetCall =
    | 'fileUpload'
    | 'urlUpload'
    | 'listFiles'
    | 'getFileById'
    | 'getFileByFileId'
    | 'updateFile'
    | 'deleteFile'
    | 'deleteFiles'
    | 'createFolder'
    | 'getFolderDetails'
    | 'updateFolder'
    | 'deleteFolder'
    | 'getFolderAncestors'
    | 'addPreset'
    | 'getPresets'
    | 'getPreset'
    | 'updatePreset'
    | 'deletePreset'
    | 'getDefaultAssetForPlayground'
    | 'getModules'
    | 'getModule'
    | 'addCredentials'
    | 'updateCredentials'
    | 'deleteCredentials'

  export class PixelbinConfig {
    constructor(config: { domain: string; apiSecret: string; integrationPlatform?: string })
  }

  export interface Paginator {
    hasNext(): boolean
    next(): Promise<Answer>
  }

  export class PixelbinClient {
    constructor(config: PixelbinConfig)
    assets: Record<AssetCall, Call> & {
      listFilesPaginator(args?: Record<string, unknown>): Paginator
    }
    organization: { getAppOrgDetails: Call }
    transformation: { getTransformationContext: Call }
    billing: { getUsageV2: Call; getUsage: Call }
  }
}
