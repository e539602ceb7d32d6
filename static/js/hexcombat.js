/* Hex combat sheet: the +/- buttons beside number inputs.
 * They are hidden without JavaScript (the inputs can still be typed in); a tap
 * steps the input and fires "change", which htmx turns into a live update.
 */
(function () {
  "use strict";

  function showSteppers() {
    document.querySelectorAll("[data-step-for]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", showSteppers);
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step-for]");
    if (!button) return;
    var input = document.getElementById(button.dataset.stepFor);
    if (!input) return;
    event.preventDefault();
    try {
      if (button.dataset.step === "1") input.stepUp(); else input.stepDown();
    } catch (error) {
      return;
    }
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
