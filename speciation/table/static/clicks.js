// Clicking what is drawn: which drawn things each option is on, and what a click on one does.
// An option names entities (its `entities`, from the server); each is drawn as one or more
// `[data-entity]` groups. A thing drawn in several places (a card's face, on every card in the
// hand that has it) is narrowed to the places that lie inside something else the option
// names (the face of the card the option names), else inside what this page chose last (the
// face of the card just chosen), else all of them. A click on a thing that several options
// name opens a small menu of those options; on a thing that one option names, chooses it.
"use strict";

const Clicks = {
  last: [],  // the entities of this page's last choice (forgotten at a hand-over)

  // Map: drawn node -> the options a click on it may choose (in the options' order).
  nodes(board, options) {
    const map = new Map();
    for (const option of options) {
      for (const entity of option.entities) {
        for (const node of Clicks.placesOf(board, entity, option.entities)) {
          if (!map.has(node)) map.set(node, []);
          if (!map.get(node).includes(option)) map.get(node).push(option);
        }
      }
    }
    return map;
  },

  // The drawn places of *entity* that a click on may mean this option (see above).
  placesOf(board, entity, named) {
    const all = [...board.querySelectorAll(`[data-entity="${CSS.escape(entity)}"]`)];
    if (all.length < 2) return all;
    for (const context of [named.filter((e) => e !== entity), Clicks.last]) {
      const inside = all.filter((node) => context.some((e) => {
        const outer = node.parentElement && node.parentElement.closest(`[data-entity="${CSS.escape(e)}"]`);
        return outer !== null && outer !== undefined;
      }));
      if (inside.length) return inside;
    }
    return all;
  },

  // Mark every place of the board an option is on; a click there chooses (or opens the menu).
  mark(board, options, choose, showMenu) {
    for (const [node, named] of Clicks.nodes(board, options)) {
      node.classList.add("choosable");
      node.dataset.options = named.map((o) => o.index).join(" ");
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        if (named.length === 1) choose(named[0].index);
        else showMenu(named, event.clientX, event.clientY);
      });
    }
  },

  // What this page chose (remembered as the context of its next decision).
  chosen(option) {
    Clicks.last = option ? option.entities.slice() : [];
  },
};

window.Clicks = Clicks;
