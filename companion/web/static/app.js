// Keep every phone current, and let a tap on a space filter the moves. No build step.
(function () {
  "use strict";
  const body = document.body;

  // Sunlight or night colours: the phone's own setting, unless this phone chose here.
  const theme = localStorage.getItem("theme");
  if (theme) body.classList.add(theme);
  document.getElementById("theme")?.addEventListener("click", () => {
    const light = getComputedStyle(body).getPropertyValue("--bg").trim() !== "#15131a";
    body.classList.remove("sun", "night");
    const chosen = light ? "night" : "sun";
    body.classList.add(chosen);
    localStorage.setItem("theme", chosen);
  });
  const stateId = body.dataset.stateId;
  const gameId = body.dataset.gameId;

  // The camera's line in the header, kept in step with GET /api/version (the server words it).
  const cameraLine = document.getElementById("camera");
  function showCamera(c) {
    if (!cameraLine || !c) return;
    cameraLine.className = "camera camera-" + c.state;
    cameraLine.textContent = c.label;
  }

  // What the camera makes of the table: its line kept current; a question asked or answered
  // (or a game moved on) reloads the page, which then shows it.
  const reading = document.getElementById("reading");
  const readingLine = document.getElementById("reading-line");
  function showReading(t) {
    if (!reading || !t) return false;
    readingLine.lastChild.textContent = " " + t.message;
    reading.className = "reading reading-" + t.status;
    return (t.question ? t.question.key : "") !== reading.dataset.question;
  }

  // The camera picture stays open (or shut) across the reloads that follow the game.
  const picture = reading?.querySelector("details");
  if (picture) {
    if (sessionStorage.getItem("picture") === "open") picture.open = true;
    picture.addEventListener("toggle", () => sessionStorage.setItem("picture", picture.open ? "open" : ""));
  }

  // Every change reaches the page as a server-sent event (the same snapshot as
  // GET /api/version); a new state or an opened/closed question reloads the page. Where
  // EventSource is missing, the page polls instead.
  function follow(v) {
    showCamera(v.camera);
    const asked = showReading(v.reading);
    const pairingChanged = v.pairing && v.pairing !== body.dataset.pairing;
    if (asked || pairingChanged || String(v.state_id) !== stateId || String(v.game_id ?? "") !== gameId) {
      location.replace("/");
      return false;
    }
    return true;
  }

  async function poll() {
    try {
      const r = await fetch("/api/version", { cache: "no-store" });
      if (r.ok && !follow(await r.json())) return;
    } catch (e) { /* server restarting: try again */ }
    setTimeout(poll, 1000);
  }

  if ("EventSource" in window) {
    const events = new EventSource("/api/events");
    events.addEventListener("version", (e) => {
      if (!follow(JSON.parse(e.data))) events.close();
    });
    // Refused (too many pages open) or gone for good: poll instead.
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED) setTimeout(poll, 1000);
    });
  } else {
    setTimeout(poll, 1000);
  }

  const groups = Array.from(document.querySelectorAll(".group"));
  const showAll = document.getElementById("show-all");
  function filter(space) {
    const pattern = new RegExp("\\b" + space + "\\b");
    let shown = 0;
    for (const g of groups) {
      const match = !space || pattern.test(g.dataset.text);
      g.hidden = !match;
      if (match) shown++;
    }
    document.querySelectorAll(".space.selected").forEach((c) => c.classList.remove("selected"));
    if (space) document.querySelector(`[data-space="${space}"]`)?.classList.add("selected");
    if (showAll) showAll.hidden = !space;
    return shown;
  }
  document.querySelectorAll(".space").forEach((cell) => {
    cell.addEventListener("click", () => filter(cell.dataset.space));
  });
  showAll?.addEventListener("click", () => filter(""));

  // New game: show the chosen game's own options (a disabled fieldset is not sent) and
  // offer only the player counts that game allows.
  const gameSelect = document.getElementById("game-select");
  const playersSelect = document.querySelector('select[name="players"]');
  function chooseGame() {
    const chosen = gameSelect.selectedOptions[0];
    document.querySelectorAll(".game-options").forEach((set) => {
      const mine = set.dataset.game === chosen.value;
      set.disabled = !mine;
      set.hidden = !mine;
    });
    const min = Number(chosen.dataset.min), max = Number(chosen.dataset.max);
    for (const option of playersSelect.options) {
      const n = Number(option.value);
      option.disabled = n < min || n > max;
    }
    if (playersSelect.selectedOptions[0].disabled) playersSelect.value = String(max);
  }
  // Set-up read from the table as laid out (Am'harb: the resource tile on each space).
  const readResources = document.getElementById("read-resources");
  readResources?.addEventListener("click", async () => {
    const said = document.getElementById("read-resources-said");
    said.textContent = "reading the table…";
    try {
      const r = await fetch(`/api/setup-from-camera?game=amharb&players=${playersSelect.value}`, { cache: "no-store" });
      const answer = await r.json();
      if (!r.ok) { said.textContent = answer.error; return; }
      document.getElementById("resources").value = answer.options.resources;
      said.textContent = answer.unread
        ? `${answer.unread} space(s) not read, marked ?: put the right letter in by hand`
        : "every space read: check it against your table";
    } catch (e) { said.textContent = "the companion did not answer"; }
  });

  if (gameSelect && playersSelect) {
    gameSelect.addEventListener("change", chooseGame);
    chooseGame();
  }
})();
