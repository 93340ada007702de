"""Words printed on notices: a short citation per rule and the consequences of not paying.

The long citations of the engines (assessments.rules.*.CITATIONS) name paragraphs and quote the
statutes; a notice has room for a short pointer to the clause, in the reader's language.
"""
from django.utils.translation import gettext_lazy as _

SHORT_CITATIONS = {
    "IRR-4": _("Ley de Riego Público: doce meses libres desde la primera agua"),
    "IRR-5": _("Ley de Riego Público, párrafo 2: reparto proporcional por acre"),
    "IRR-6": _("Ley de Riego Público, párrafo 5: máximo imponible por acre y año"),
    "IRR-8": _("Ley de Riego Público, párrafos 5 a 6: exención por agua bajo el mínimo"),
    "IRR-9": _("Ley de Riego Público: se cobra como la contribución sobre la propiedad"),
    "IRR-10": _("Ley de Riego Público: gravamen sobre la finca a favor del Estado"),
    "IRR-12": _("Ley de Riego Público: embargo y venta; límite de embargo"),
    "LAJ-3": _("Ley del Sistema de Riego del Valle de Lajas, párrafo 9: tipo por acre (bombeo al 50 %)"),
    "LAJ-4": _("Ley del Sistema de Riego del Valle de Lajas, párrafos 10 y 12: crédito por agua cedida"),
    "LAJ-5": _("Ley del Sistema de Riego del Valle de Lajas, párrafos 11 y 13: agua vendida por acre-pie"),
    "LAJ-6": _("Ley del Sistema de Riego del Valle de Lajas, párrafo 14: por adelantado, 1 jul. y 1 ene."),
    "LAJ-7": _("Ley del Sistema de Riego del Valle de Lajas, párrafo 14: morosa a los 60 días; ½ % por mes o fracción"),
    "FRA-1": _("Reglamento de Aguas de Puerto Rico, sección 8.13: tarifa anual por uso y volumen"),
    "FRA-3": _("Reglamento de Aguas de Puerto Rico, sección 8.14: pago por adelantado al Secretario de Hacienda"),
    "FRA-8": _("Reglamento de Aguas de Puerto Rico, sección 8.19: atrasos de seis meses o más"),
    "SID-1": _("Ley de Distritos Especiales de Mejoramiento: cargo anual fijado por la resolución"),
    "SID-2": _("Ley de Distritos Especiales de Mejoramiento: notificación anual por correo regular"),
    "SID-4": _("Ley de Distritos Especiales de Mejoramiento: gravamen tácito preferente"),
    "TID-2": _("Ley de Distritos de Mejoramiento Turístico: cargo anual según la fórmula de la ordenanza"),
    "TID-4": _("Ley de Distritos de Mejoramiento Turístico: notificación por correo certificado"),
    "TID-6": _("Ley de Distritos de Mejoramiento Turístico: gravamen tácito preferente"),
}

LIEN_RULE = {"IRR": "IRR-10", "LAJ": "LAJ-6", "SID": "SID-4", "TID": "TID-6"}

LIEN_TEXT = {
    "IRR": _("Este cargo es un gravamen sobre la finca a favor del Estado Libre Asociado, preferente a todo otro "
             "derecho salvo la contribución sobre la propiedad, ciertas hipotecas calificadas y los créditos "
             "refaccionarios de las cooperativas del distrito; sigue a la finca aunque se venda."),
    "LAJ": _("Este cargo es un gravamen sobre la finca, preferente a todo otro salvo el de la contribución sobre "
             "la propiedad; sigue a la finca aunque se venda."),
    "SID": _("Este cargo está garantizado por un gravamen tácito sobre la propiedad, preferente a todo otro "
             "gravamen anterior o posterior salvo los que la ley exceptúa, y obliga a los compradores futuros."),
    "TID": _("Este cargo está garantizado por un gravamen tácito sobre la propiedad, preferente a todo otro "
             "gravamen salvo los que la ley exceptúa, y obliga a los compradores futuros."),
}

COLLECTION_TEXT = {
    "FRA": _("Un atraso de seis meses o más es causa para modificar, suspender o revocar la franquicia, previa "
             "notificación por correo certificado y audiencia (FRA-8). El Departamento puede cerrar las obras de "
             "extracción por falta de pago (FRA-3), y no renueva una franquicia con deudas por uso de agua (FRA-7)."),
    "default": _("La deuda morosa se cobra por el apremio de la contribución sobre la propiedad: embargo y venta "
                 "de la propiedad en pública subasta."),
}
