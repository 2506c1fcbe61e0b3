// vite-plugin-pwa's registration hook, through a module of ours: its virtual module exists only
// in a Vite build with the plugin, so the update prompt's tests replace this file instead.
export { useRegisterSW } from 'virtual:pwa-register/react';
