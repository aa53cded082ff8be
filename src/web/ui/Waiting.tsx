/**
 * A wait in words that says how long it has lasted once it is long (review 53b #11: a folder
 * that took a minute to list said "Loading…" all along, as one that had hung would). The note is
 * announced once, when the wait turns slow; the seconds counting after it are for the eye.
 */
import { useEffect, useState } from "react";
import { slowWaitSeconds } from "./waiting.utils";

export function Waiting({ what, className = "muted" }: { what: string; className?: string }) {
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = slowWaitSeconds(now - since);
  return (
    <p className={className} role="status">
      {what}…
      {seconds !== undefined && (
        <>
          {" "}
          <span className="waiting-slow">
            The service is slow to answer; still waiting<span aria-hidden="true"> ({seconds} s so far)</span>. It goes on by itself, and you may go elsewhere meanwhile.
          </span>
        </>
      )}
    </p>
  );
}
