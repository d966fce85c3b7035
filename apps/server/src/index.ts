export { type App, createApp, expressApp } from './app.js';
export { type Config, ConfigError, loadConfig } from './config.js';
export { type Database, openDatabase } from './db/database.js';
export { migrate } from './db/migrate.js';
export { type AppDeps, type AppParts, buildDeps } from './deps.js';
export { type RunningServer, type StartOptions, startServer } from './server.js';
