import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

function Placeholder() {
  return <main><h1>Baseboard</h1><p>The app is being built.</p></main>;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);
