export { createApp } from './app.ts'
export { ConfigError, DEFAULT_HOST, DEFAULT_PORT, loadConfig, type ServerConfig } from './config.ts'
export { type RunningServer, startServer } from './server.ts'
export { createServices, type Services } from './services.ts'
