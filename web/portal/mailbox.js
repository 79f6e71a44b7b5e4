// Mailbox: what the picked region's host "sent", newest first; a message opens as its reader sees it.
"use strict";

const message = document.getElementById("message");

function open(mail) {
  document.getElementById("mail-subject").textContent = mail.subject;
  document.getElementById("mail-to").textContent = mail.to;
  document.getElementById("mail-sent").textContent = Portal.time(mail.createdAt);
  document.getElementById("mail-body").textContent = mail.body;
  // A registration mail carries its token's QR, as the customer's mail client would show it.
  document.getElementById("mail-qr").hidden = !mail.qrSvg;
  document.getElementById("mail-qr-image").src = mail.qrSvg ? `data:image/svg+xml;base64,${btoa(mail.qrSvg)}` : "";
  document.getElementById("mail").hidden = false;
}

async function load() {
  const body = document.querySelector("#mails tbody");
  document.getElementById("mail").hidden = true;
  try {
    const { messages } = await Portal.api("GET", Portal.regionPath("/mailbox"));
    body.replaceChildren();
    if (messages.length === 0) Portal.say(message, "No messages yet.", "");
    for (const mail of messages) {
      const row = body.insertRow();
      row.dataset.mail = mail.id;
      Portal.cell(row, Portal.time(mail.createdAt));
      Portal.cell(row, mail.to);
      row.insertCell().append(Portal.actionLink(mail.subject, () => open(mail)));
    }
  } catch (failure) {
    Portal.say(message, `Cannot read the mailbox: ${failure.message}`, "error");
  }
}

Portal.setUpRegionPicker(() => { Portal.say(message, ""); load(); })
  .catch((failure) => Portal.say(message, `Cannot list the hosts: ${failure.message}`, "error"));
