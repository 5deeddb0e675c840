/* global document, L */
/*
 * The map view's drawing (templates/map.eta): Leaflet over the tile server the page names, one
 * marker per venue, each popup listing that venue's events of the page. Everything comes from the
 * data-* attributes of #cal-map, so the page needs no inline script (its CSP allows none). The
 * list beside the map holds the same events: without this script the page is that list, and the
 * map's box stays hidden. Popups are built as elements with text, never as HTML from the data.
 */
(function () {
  'use strict';
  const canvas = document.getElementById('cal-map');
  if (!canvas || typeof L === 'undefined') return;
  let markers;
  try {
    markers = JSON.parse(canvas.dataset.markers || '[]');
  } catch {
    return;
  }
  const placed = Array.isArray(markers)
    ? markers.filter((m) => m && Number.isFinite(m.lat) && Number.isFinite(m.lng))
    : [];
  if (placed.length === 0) return;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function link(href, text) {
    const a = element('a', '', text);
    a.href = href;
    return a;
  }

  function popup(marker) {
    const box = element('div', 'map-popup');
    const name = element('p', 'map-popup-venue');
    name.appendChild(link(marker.href, marker.name));
    box.appendChild(name);
    if (marker.address) box.appendChild(element('p', 'map-popup-address', marker.address));
    const list = element('ul', 'map-popup-events');
    for (const event of marker.events || []) {
      const item = element('li');
      item.appendChild(link(event.href, event.title));
      item.appendChild(element('span', 'map-popup-when', event.when));
      list.appendChild(item);
    }
    box.appendChild(list);
    return box;
  }

  canvas.hidden = false;
  canvas.parentElement.classList.add('has-map');
  // The page scrolls with the wheel; the map zooms with its buttons, keys or a pinch.
  const map = L.map(canvas, { scrollWheelZoom: false });
  const tiles = canvas.dataset.tiles;
  if (tiles && tiles !== 'off') {
    L.tileLayer(tiles, { attribution: canvas.dataset.attribution || '', maxZoom: 19 }).addTo(map);
  } else {
    canvas.classList.add('no-tiles');
  }
  const icon = L.icon({
    iconUrl: canvas.dataset.icon,
    iconRetinaUrl: canvas.dataset.icon2x,
    // No shadow: Leaflet ships it at one resolution only, blurred on a phone's screen.
    iconSize: [25, 41],
    iconAnchor: [12, 41],
    popupAnchor: [1, -34],
  });
  for (const marker of placed) {
    // alt and title name the venue: the marker is a focusable button that opens its popup with Enter.
    L.marker([marker.lat, marker.lng], { icon, alt: marker.name, title: marker.name, riseOnHover: true })
      .bindPopup(popup(marker), { maxHeight: 260 })
      .addTo(map);
  }
  map.fitBounds(
    placed.map((m) => [m.lat, m.lng]),
    { padding: [32, 32], maxZoom: 15 },
  );
})();
