import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter, loadMatchedRoutes } from './app/router.tsx';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Element #root fehlt in index.html');

const app = () => (
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
  </StrictMode>
);

// A public page arrives prerendered (scripts/prerender.ts): load the code of its route first, so
// the first client render matches the HTML, then hydrate. Otherwise (the service worker's shell,
// Survey Desk) render from scratch. No top-level await: the route chunks import from this entry,
// which must have finished running first.
if (container.firstElementChild) {
  loadMatchedRoutes(window.location).then(
    () => hydrateRoot(container, app()),
    () => {
      // The page's code did not arrive: the router shows its German error instead.
      container.replaceChildren();
      createRoot(container).render(app());
    },
  );
} else {
  createRoot(container).render(app());
}
