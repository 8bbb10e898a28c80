// The example page's listener: each <gpprobe-probe> reports its results and selections as events,
// and the box under it says what the probe found.
const format = (v) => (Math.abs(v) >= 0.001 || v === 0 ? v.toFixed(3) : v.toExponential(2));

for (const element of document.querySelectorAll('gpprobe-probe')) {
  const readout = document.getElementById(`${element.id}-readout`);
  element.addEventListener('gpprobe-results', (event) => {
    const { scores, queryRows, observations, epsilon, strength } = event.detail;
    const rows = queryRows ?? Array.from(scores.judgedProbability, (_, i) => i);
    const confident = rows.filter((i) => scores.judgedProbability[i] >= 0.9).length;
    readout.textContent =
      `${observations.length} observations, ε = ${epsilon}, s = ${strength}: ` +
      `${confident} of ${rows.length} images judged ≥ 0.9 likely to show the concept.`;
    readout.dataset.results = String(rows.length);
  });
  element.addEventListener('gpprobe-select', (event) => {
    const { row, scores } = event.detail;
    if (!scores) return;
    readout.textContent = `Image ${row}: judged probability ${format(scores.judgedProbability)}, episteme ${format(scores.episteme)}.`;
    readout.dataset.selected = String(row);
  });
}
