/// <reference types="vite-plugin-pwa/vanillajs" />
// vite-plugin-pwa's registration without React (the prerendered pages' notices), through a
// module of ours: its virtual module exists only in a Vite build with the plugin, so the notices'
// tests replace this file instead. Apart from register-sw.ts, whose React hook would bring React.
export { registerSW } from 'virtual:pwa-register';
