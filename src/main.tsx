import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './app/router.tsx';
import './index.css';

// The app shell (index.html): Survey Desk, a questionnaire by its own address, and what the
// service worker answers for any address that is not a prerendered page. Prerendered public pages
// do not load this entry; they run only their islands (src/islands.tsx).
const container = document.getElementById('root');
if (!container) throw new Error('Element #root fehlt in index.html');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
  </StrictMode>,
);
