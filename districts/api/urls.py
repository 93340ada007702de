from rest_framework.routers import DefaultRouter

from districts.api import views

router = DefaultRouter()
router.register("parcels", views.ParcelViewSet, basename="parcel")
router.register("parties", views.PartyViewSet, basename="party")
router.register("offices", views.OfficeViewSet, basename="office")
router.register("districts", views.DistrictViewSet, basename="district")
router.register("memberships", views.MembershipViewSet, basename="membership")
router.register("water-deliveries", views.WaterDeliveryViewSet, basename="water-delivery")
urlpatterns = router.urls
