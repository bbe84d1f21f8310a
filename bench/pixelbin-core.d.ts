// Accurate types for the part of @pixelbin/core 6.1.0 that the benchmarks use. The package ships
// .d.ts files, but they do not match its behaviour (they name the base URL `baseURL` while the
// code reads and returns `baseUrl`, and make every objToUrl key required), so this ambient
// declaration, which TypeScript prefers to the package's own files, replaces them.
//
// Shape at run time: the package is CommonJS (`lib/cjs/pixelbin.js`). Imported from an ES
// module, the default import is `module.exports`, whose `default` is the Pixelbin class; the
// URL helpers are its static getter `utils`, so they are reached as `pixelbin.default.utils`.
declare module '@pixelbin/core' {
  /** One `key:value` parameter; values are read as strings. */
  export interface PixelbinValue {
    key?: string
    value?: unknown
  }

  export interface PixelbinTransformation {
    plugin?: string
    name?: string
    values?: PixelbinValue[]
  }

  export interface PixelbinOptions {
    dpr?: number | string
    f_auto?: boolean
  }

  /** What `urlToObj` returns. `zone` and `cloudName` are undefined when absent. */
  export interface PixelbinUrlObject {
    baseUrl: string
    filePath: string
    pattern: string
    version: string
    zone: string | undefined
    cloudName: string | undefined
    worker: boolean
    workerPath: string
    options: PixelbinOptions
    transformations: PixelbinTransformation[]
  }

  /** What `objToUrl` reads. It writes `baseUrl`, `pattern`, `version`, `zone` back into it. */
  export interface PixelbinUrlInput {
    baseUrl?: string
    isCustomDomain?: boolean
    version?: string
    cloudName?: string | null | undefined
    zone?: string | null | undefined
    pattern?: string
    filePath?: string
    worker?: boolean
    workerPath?: string
    options?: PixelbinOptions
    transformations?: PixelbinTransformation[]
  }

  export interface PixelbinUtils {
    urlToObj(url: string, opts?: { isCustomDomain: boolean }): PixelbinUrlObject
    objToUrl(obj: PixelbinUrlInput): string
  }

  const moduleExports: {
    default: {
      readonly utils: PixelbinUtils
    }
  }
  export default moduleExports
}
